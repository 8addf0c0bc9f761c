"""The worked example, run for real: examples/deploy-coordinator/demo.py."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from .helpers import PY, REPO, kinds, only_run, read_events, read_state, started_actions

DEMO = REPO / "examples" / "deploy-coordinator" / "demo.py"


def run_demo(variant: str, tmp_path: Path, home: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    env = {**os.environ, "GOALKEEPER_HOME": str(home), "NO_COLOR": "1"}
    proc = subprocess.run([PY, str(DEMO), "--variant", variant, "--dir", str(tmp_path / "demo")],
                          capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc, only_run(home)


def finished(evs: list[dict[str, Any]], action: str) -> list[str]:
    return [e["outcome"] for e in evs if e["event"] == "action.finished" and e["action"] == action]


def test_healing_variant_replans_pins_and_reaches(tmp_path: Path, goalkeeper_home: Path) -> None:
    proc, run_dir = run_demo("healing", tmp_path, goalkeeper_home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "healing: exit 0 (expected 0)" in proc.stdout
    evs = read_events(run_dir)
    first_plan = next(e for e in evs if e["event"] == "plan.made")
    assert first_plan["plan"] == ["run_tests", "build_image", "deploy", "verify_health"]
    assert started_actions(evs) == [
        "run_tests", "build_image", "deploy",
        "verify_health", "verify_health", "verify_health",
        "pin_env", "deploy", "verify_health",
    ]
    assert finished(evs, "verify_health") == ["failed", "failed", "failed", "ok"]
    (replan,) = [e for e in evs if e["event"] == "run.replanned"]
    assert replan["failed"] == ["verify_health"]
    assert {"fact": "deployed", "believed": True, "observed": False} in replan["corrections"]
    assert {"fact": "env_pinned", "believed": True, "observed": False} in replan["corrections"]
    after = evs[kinds(evs).index("run.replanned"):]
    assert next(e for e in after if e["event"] == "plan.made")["plan"] == ["pin_env", "deploy", "verify_health"]
    state = read_state(run_dir)
    assert state["status"] == "reached" and state["tick"] == 9
    assert kinds(evs)[-1] == "run.reached"
    world = tmp_path / "demo" / "healing" / "world"
    assert (world / "deployments" / "production" / "image.tar").exists()
    assert (world / "env_pin").read_text().strip() == "production"


def test_locked_variant_escalates_naming_env_pinned(tmp_path: Path, goalkeeper_home: Path) -> None:
    proc, run_dir = run_demo("locked", tmp_path, goalkeeper_home)
    assert proc.returncode == 0, proc.stdout  # the demo itself checks locked exits 3
    assert "locked: exit 3 (expected 3)" in proc.stdout
    state = read_state(run_dir)
    assert state["status"] == "escalated"
    esc = state["escalation"]
    assert esc["reason"] == "unreachable"
    gaps = esc["gaps"]
    assert {"action": "deploy", "fact": "env_pinned", "condition": "== true", "root": False} in gaps
    assert {"action": "pin_env", "fact": "pin_allowed", "condition": "== true", "root": True} in gaps
    assert [g for g in gaps if g["root"]] == [
        {"action": "pin_env", "fact": "pin_allowed", "condition": "== true", "root": True}]
    evs = read_events(run_dir)
    assert finished(evs, "verify_health") == ["failed"] * 3
    assert "pin_env" not in started_actions(evs)  # never tried what cannot work
    report = json.loads((run_dir / "report.json").read_text())
    assert report["goal"] == ["health_ok == true"]
    assert report["facts"]["env_pinned"]["value"] is False
    (item,) = (goalkeeper_home / "triage").glob("tri-*.json")
    data = json.loads(item.read_text())
    assert data["source"] == "run" and data["source_id"] == run_dir.name and data["id"] == esc["triage_id"]
    assert "env_pinned" in data["context"]["gap_facts"]
    assert "env_pinned" in item.with_suffix(".md").read_text()
