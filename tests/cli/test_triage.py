"""``goalkeeper triage`` end to end: list, show (Markdown), act --goal, dismiss, defer."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from goalkeeper.store.triage import file_item

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_list_show_dismiss_defer(run_cli: Run, tmp_path: Path) -> None:
    a = file_item(source="run", source_id="run-1", reason="stuck", summary="Deploy stuck",
                  markdown="# Report\n\nThe deploy is stuck.\n", root=tmp_path / "gk-home")
    b = file_item(source="heartbeat", source_id="tests", reason="scan_failed", summary="Tests red",
                  root=tmp_path / "gk-home")
    listed = json.loads(run_cli("triage", "list", "--json").stdout)
    assert [i["id"] for i in listed] == [a.id, b.id]
    shown = run_cli("triage", "show", a.id)
    assert shown.returncode == 0 and "The deploy is stuck." in shown.stdout
    assert json.loads(run_cli("triage", "show", a.id, "--json").stdout)["markdown"].startswith("# Report")
    assert run_cli("triage", "dismiss", a.id).returncode == 0
    assert run_cli("triage", "defer", b.id, "--note", "next week").returncode == 0
    assert json.loads(run_cli("triage", "list", "--status", "pending", "--json").stdout) == []
    deferred = json.loads(run_cli("triage", "list", "--status", "deferred", "--json").stdout)
    assert deferred[0]["note"] == "next week"
    missing = run_cli("triage", "show", "tri-nothere")
    assert missing.returncode == 1 and "triage list" in missing.stderr


def test_act_goal_promotes_with_flags_or_context(run_cli: Run, tmp_path: Path) -> None:
    home = tmp_path / "gk-home"
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "fix.py").write_text("")  # the maker must exist: promoting runs goal new's preflight
    bare = file_item(source="run", source_id="run-1", reason="stuck", summary="Fix the flaky deploy", root=home)
    res = run_cli("triage", "act", bare.id, "--goal")
    assert res.returncode == 1 and "--until" in res.stderr
    res = run_cli("triage", "act", bare.id, "--goal", "--until", "pytest -q", "--workspace", str(ws),
                  "--maker", "python fix.py", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    goal = json.loads(run_cli("goal", "show", out["goalId"], "--json").stdout)
    assert goal["objective"] == "Fix the flaky deploy" and goal["stoppingConditions"][0]["type"] == "test_pass"
    assert goal["maker"]["argv"] == ["python", "fix.py"] and goal["source"]["triageId"] == bare.id
    assert out["item"]["status"] == "acted" and out["item"]["promotedGoal"] == out["goalId"]

    ctx = file_item(source="goal", source_id="goal-aaaaaaaa", reason="no_progress", summary="Make lint clean",
                    context={"stoppingConditions": [{"type": "lint_clean", "command": "ruff check ."}],
                             "workspace": str(ws)}, root=home)
    res = run_cli("triage", "act", ctx.id, "--goal")
    assert res.returncode == 0 and "promoted to goal" in res.stdout


def test_act_without_goal_marks_acted(run_cli: Run, tmp_path: Path) -> None:
    item = file_item(source="run", source_id="r", reason="x", summary="s", root=tmp_path / "gk-home")
    assert run_cli("triage", "act", item.id, "--note", "fixed by hand").returncode == 0
    assert json.loads(run_cli("triage", "show", item.id, "--json").stdout)["status"] == "acted"
