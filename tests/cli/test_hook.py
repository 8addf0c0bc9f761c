"""`goalkeeper hook claude-code ...` as Claude Code runs it: hook JSON on stdin, JSON on stdout, exit 0."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.store.lock import FileLock

from ..integrations.helpers import APP_FIX, TESTS, gk, hook_input, new_host_goal, project


def _hook(event: str, stdin: str, cwd: Path) -> dict[str, Any] | None:
    res = gk("hook", "claude-code", event, cwd=cwd, stdin=stdin)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    return json.loads(res.stdout) if res.stdout.strip() else None


def _stop(ws: Path, **kw: Any) -> dict[str, Any] | None:
    return _hook("stop", hook_input("Stop", ws, **kw), ws)


def _status(gid: str, ws: Path) -> dict[str, Any]:
    res = gk("goal", "status", gid, "--json", cwd=ws)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def _events(home: Path, gid: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (home / "goals" / f"{gid}.events.jsonl").read_text().splitlines()]


@pytest.mark.deep  # a whole run: whole goal runs through the hook; test_integrate's stop hook and the hook fuzz keep it in the suite
def test_stop_blocks_while_the_tests_fail_and_allows_once_they_pass(tmp_path: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    out = _stop(ws)
    assert out is not None and out["decision"] == "block"
    assert gid in out["reason"] and "test_add" in out["reason"] and "Next:" in out["reason"]
    (ws / "app.py").write_text(APP_FIX)
    out = _stop(ws / "tests", stop_hook_active=True)  # from a folder inside the workspace
    assert out is not None and "decision" not in out and "converged" in out["systemMessage"]
    assert _status(gid, ws)["state"] == "converged"
    assert _stop(ws) is None  # nothing open any more: the hook says nothing


def test_a_goal_of_another_session_or_workspace_is_left_alone(tmp_path: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws, session="sess-1")
    assert _stop(ws, session="sess-2") is None
    assert _stop(ws, session=None) is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert _stop(elsewhere) is None
    assert _status(gid, ws)["iterations"] == 0  # no check ran, no iteration was spent


@pytest.mark.deep
def test_goalkeepers_budget_ends_the_loop_not_claude_codes_cap(tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws, "--max-iterations", "3")
    answers = [_stop(ws, stop_hook_active=i > 0) for i in range(3)]
    assert [a is not None and a.get("decision") for a in answers[:2]] == ["block", "block"]
    last = answers[2]
    assert last is not None and "decision" not in last
    status = _status(gid, ws)
    assert status["state"] == "escalated"
    tid = status["escalation"]["triageId"]
    assert tid in last["systemMessage"] and status["escalation"]["reason"] in last["systemMessage"]
    assert (goalkeeper_home / "triage" / f"{tid}.json").is_file()


def test_a_host_goal_nothing_would_bound_is_refused_when_made(tmp_path: Path) -> None:
    """So every Stop loop ends by goalkeeper's budget; stop_hook_active only guards goals made before."""
    ws = project(tmp_path)
    res = gk("goal", "new", "x", "--maker-type", "host", "--until", "true", "--workspace", str(ws),
             "--max-iterations", "none", "--max-duration", "none", cwd=ws)
    assert res.returncode == 1 and "set maxIterations or maxDuration" in res.stderr and "Traceback" not in res.stderr


def test_a_host_that_edits_the_tests_is_rejected_then_escalated_for_tampering(tmp_path: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws, "--max-iterations", "6")
    cheat = "def test_add():\n    assert True\n"
    (ws / "tests" / "test_app.py").write_text(cheat)
    first = _stop(ws)
    assert first is not None and first["decision"] == "block"
    assert "edited protected test file tests/test_app.py" in first["reason"] and "reverted" in first["reason"]
    assert (ws / "tests" / "test_app.py").read_text() == TESTS  # restored
    (ws / "tests" / "test_app.py").write_text(cheat)
    second = _stop(ws, stop_hook_active=True)
    assert second is not None and "decision" not in second and "escalated (tampering)" in second["systemMessage"]
    assert _status(gid, ws)["escalation"]["reason"] == "tampering"


def test_bad_stdin_never_blocks_and_says_why(tmp_path: Path) -> None:
    ws = project(tmp_path)
    new_host_goal(ws)
    for stdin, why in [("", "no hook input"), ("{oops", "not JSON"), ("[]", "JSON list"),
                       ("\udcff".encode("utf-8", "surrogateescape").decode("latin-1"), "not JSON")]:
        out = _hook("stop", stdin, ws)
        assert out is not None and "decision" not in out and why in out["systemMessage"], stdin
    for event in ("session-start", "session-end"):
        assert _hook(event, "{oops", ws) is None


def test_a_goal_that_cannot_be_checked_lets_the_session_stop(tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    lock = FileLock(goalkeeper_home / "goals" / f"{gid}.lock", root=goalkeeper_home)
    with lock:  # another check (or a terminal) holds the goal
        out = _stop(ws)
    assert out is not None and "decision" not in out
    assert gid in out["systemMessage"] and "already running" in out["systemMessage"]
    assert _status(gid, ws)["iterations"] == 0


def test_a_goal_file_that_is_not_json_is_skipped_not_fatal(tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    (goalkeeper_home / "goals" / "goal-zzzzzzzz.json").write_text("{broken")
    out = _stop(ws)
    assert out is not None and out["decision"] == "block" and gid in out["reason"]


@pytest.mark.deep  # a whole run: whole goal runs through the hook; test_integrate's stop hook and the hook fuzz keep it in the suite
def test_session_start_announces_the_open_goal_with_its_last_hint(tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    _stop(ws)
    out = _hook("session-start", hook_input("SessionStart", ws, source="resume"), ws)
    assert out is not None
    ctx = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert f"{gid} [active, iteration 1/15] make the tests pass" in ctx and "last hint:" in ctx
    assert "host.session_started" in [e["event"] for e in _events(goalkeeper_home, gid)]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert _hook("session-start", hook_input("SessionStart", elsewhere), elsewhere) is None


@pytest.mark.deep  # a whole run: whole goal runs through the hook; test_integrate's stop hook and the hook fuzz keep it in the suite
def test_session_end_repairs_a_half_written_goal_and_charges_the_hosts_time(
        tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    _stop(ws)
    before = _status(gid, ws)["elapsedSeconds"]
    assert _hook("session-end", hook_input("SessionEnd", ws), ws) is None
    ended = [e for e in _events(goalkeeper_home, gid) if e["event"] == "host.session_ended"]
    assert len(ended) == 1 and not ended[0]["repaired"] and ended[0]["chargedSeconds"] >= 0
    assert _status(gid, ws)["elapsedSeconds"] >= before + ended[0]["chargedSeconds"] - 0.1  # status rounds to 0.1
    path = goalkeeper_home / "goals" / f"{gid}.json"
    data = json.loads(path.read_text())
    data["objective"] = "something else"  # a write that did not come from goalkeeper
    path.write_text(json.dumps(data))
    assert gk("goal", "status", gid, cwd=ws).returncode == 1
    assert _hook("session-end", hook_input("SessionEnd", ws), ws) is None
    status = _status(gid, ws)
    assert status["objective"] == "make the tests pass" and status["state"] == "active"
    ended = [e for e in _events(goalkeeper_home, gid) if e["event"] == "host.session_ended"]
    assert len(ended) == 2 and ended[1]["session"] == "sess-1" and ended[1]["repaired"]
    assert os.stat(path).st_mode & 0o777 == 0o600  # still goalkeeper's private, signed file


def test_a_host_that_forges_its_goal_file_to_converged_is_still_blocked(
        tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    path = goalkeeper_home / "goals" / f"{gid}.json"
    data = json.loads(path.read_text())
    data["state"] = "converged"
    path.write_text(json.dumps(data))
    out = _stop(ws)
    assert out is not None and out["decision"] == "block" and gid in out["reason"]
    assert "rebuilt from its signed event log" in out["systemMessage"]


def test_a_goal_file_that_vanished_is_named_to_the_user(tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)
    (goalkeeper_home / "goals" / f"{gid}.json").unlink()
    out = _stop(ws)
    assert out is not None and "decision" not in out
    assert gid in out["systemMessage"] and "goal file is gone" in out["systemMessage"]
