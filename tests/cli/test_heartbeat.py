"""``goalkeeper heartbeat CONFIG``: one round of scans through the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., subprocess.CompletedProcess[str]]


def _config(tmp_path: Path, *, fail: bool, on_fail: str = "triage") -> Path:
    code = "raise SystemExit(1)" if fail else "pass"
    scan: dict[str, object] = {"name": "checks", "command": [sys.executable, "-c", code], "onFail": on_fail}
    if on_fail == "goal":
        scan["goal"] = {"objective": "Make checks pass", "maker": [sys.executable, "-c", "pass"], "maxDollars": 1}
    p = tmp_path / "hb" / "heartbeat.json"
    p.parent.mkdir(exist_ok=True)
    p.write_text(json.dumps({"dollarsPerHour": 1.5, "scans": [scan]}))
    return p


def test_passing_scan_exits_0(run_cli: Run, tmp_path: Path) -> None:
    res = run_cli("heartbeat", _config(tmp_path, fail=False), "--json")
    assert res.returncode == 0 and json.loads(res.stdout)["action"] == "ok"


def test_failing_scan_files_an_item(run_cli: Run, tmp_path: Path) -> None:
    res = run_cli("heartbeat", _config(tmp_path, fail=True))
    assert res.returncode == 3 and "filed" in res.stdout
    items = json.loads(run_cli("triage", "list", "--json").stdout)
    assert len(items) == 1 and items[0]["source"] == "heartbeat"


def test_failing_scan_creates_a_goal_then_hits_the_cap(run_cli: Run, tmp_path: Path) -> None:
    cfg = _config(tmp_path, fail=True, on_fail="goal")
    first = json.loads(run_cli("heartbeat", cfg, "--json").stdout)
    assert first["action"] == "goal" and first["goalId"]
    goals = json.loads(run_cli("goal", "list", "--json").stdout)
    assert [g["goalId"] for g in goals] == [first["goalId"]]
    run_cli("goal", "abandon", first["goalId"])  # no live goal any more, but $1 of $1.5/h is reserved
    second = json.loads(run_cli("heartbeat", cfg, "--json").stdout)
    assert second["action"] == "capped" and second["triageId"]


def test_every_with_times(run_cli: Run, tmp_path: Path) -> None:
    res = run_cli("heartbeat", _config(tmp_path, fail=False), "--every", "0.01s", "--times", "2", "--json")
    assert res.returncode == 0 and len(res.stdout.splitlines()) == 2
