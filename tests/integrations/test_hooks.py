"""The hook decisions, pure: which goals a hook acts on, what Stop and SessionStart answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.convergence import Goal, Iteration, MakerSpec, StoppingCondition
from goalkeeper.errors import ConfigError
from goalkeeper.integrations.hooks import (
    MAX_INPUT,
    CheckOutcome,
    bound_to,
    bounded,
    handle_hook,
    in_workspace,
    parse_input,
    start_reply,
    stop_reply,
)


def _goal(ws: Path, *, gid: str = "goal-aaaaaaaa", maker: str = "host", state: str = "active",
          session: str | None = None, hint: str | None = None) -> Goal:
    g = Goal(goal_id=gid, objective="make the tests pass", stopping_conditions=[StoppingCondition(command="true")],
             maker=MakerSpec(type=maker), workspace=str(ws), state=state,  # type: ignore[arg-type]
             source={"session": session} if session else {})
    if hint:
        g.history.append(Iteration(iteration=1, phase="done", next_hint=hint))
    return g


def test_parse_input_reads_claude_codes_fields() -> None:
    inp = parse_input(json.dumps({"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": "/w",
                                  "hook_event_name": "Stop", "stop_hook_active": True, "extra": 1}).encode(), "stop")
    assert (inp.event, inp.session_id, inp.cwd, inp.stop_hook_active, inp.transcript_path) == (
        "Stop", "abc", Path("/w"), True, "/t.jsonl")
    start = parse_input('{"hook_event_name": "SessionStart", "source": "resume"}', "session-start")
    assert start.source == "resume" and start.cwd is None and start.session_id is None
    assert parse_input('{"stop_hook_active": "yes"}', "stop").stop_hook_active is False  # only a real true


@pytest.mark.parametrize("raw,why", [
    (b"", "no hook input"), (b"   \n", "no hook input"), (b"{not json", "not JSON"), (b"[1, 2]", "JSON list"),
    (b"null", "JSON NoneType"), (b"x" * (MAX_INPUT + 1), "larger than"),
])
def test_parse_input_names_what_is_wrong(raw: bytes, why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        parse_input(raw, "stop")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=300), st.dictionaries(st.sampled_from(
    ["cwd", "session_id", "hook_event_name", "stop_hook_active"]), st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=20))).map(lambda d: json.dumps(d).encode())))
def test_any_stdin_gets_an_answer_and_never_blocks(raw: bytes) -> None:
    reply = handle_hook("stop", raw)
    assert reply.exit_code == 0
    assert reply.output is None or reply.output.get("decision") != "block"
    json.loads(reply.text() or "{}")


def test_in_workspace_follows_folders_and_links(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(ws)
    assert in_workspace(ws, str(ws)) and in_workspace(ws / "sub", str(ws))
    assert in_workspace(tmp_path / "link" / "sub", str(ws))
    assert not in_workspace(tmp_path, str(ws)) and not in_workspace(ws, None)
    assert not in_workspace(tmp_path / "wsx", str(ws))  # a name prefix is not a parent


def test_only_active_host_goals_of_this_workspace_and_session_are_bound(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    assert bound_to(_goal(ws), ws, "s1") and bound_to(_goal(ws), ws, None)  # no session given: any session
    assert bound_to(_goal(ws, session="s1"), ws, "s1")
    assert not bound_to(_goal(ws, session="s1"), ws, "s2")
    assert not bound_to(_goal(ws, session="s1"), ws, None)
    assert not bound_to(_goal(ws, maker="command"), ws, "s1")
    for state in ("paused", "converged", "escalated", "failed"):
        assert not bound_to(_goal(ws, state=state), ws, "s1")
    assert not bound_to(_goal(ws), tmp_path, "s1")


def _verdict(state: str, **kw: Any) -> dict[str, Any]:
    return {"state": state, "iteration": 2, "maxIterations": 5, "failing": [], "findings": [], "nextHint": None,
            "reason": None, "detail": None, "triageId": None, **kw}


def test_stop_blocks_while_not_done_with_failing_checks_findings_and_hint() -> None:
    reply = stop_reply([CheckOutcome("goal-aaaaaaaa", "obj", _verdict(
        "active", failing=["pytest -q: 1 failed"], findings=["edited protected test file tests/t.py"],
        nextHint="fix add() in app.py"))])
    assert reply.exit_code == 0 and reply.output is not None
    assert reply.output["decision"] == "block"
    reason = reply.output["reason"]
    for part in ("goal-aaaaaaaa", "iteration 2 of 5", "pytest -q: 1 failed", "edited protected test file",
                 "reverted", "Next: fix add() in app.py"):
        assert part in reason
    assert "systemMessage" not in reply.output


def test_stop_allows_when_converged_and_tells_the_user() -> None:
    reply = stop_reply([CheckOutcome("goal-aaaaaaaa", "obj", _verdict("converged"))])
    assert reply.output == {"systemMessage": "goalkeeper: goal goal-aaaaaaaa converged at iteration 2: every "
                                             "stopping condition passed on a sealed tree"}


@pytest.mark.parametrize("reason", ["budget_exhausted", "tampering", "no_progress", "unrunnable"])
def test_stop_allows_an_escalation_and_names_the_triage_item(reason: str) -> None:
    reply = stop_reply([CheckOutcome("goal-aaaaaaaa", "obj", _verdict(
        "escalated", reason=reason, detail="limit 5, observed 5", triageId="tri-bbbbbbbb"))])
    assert reply.output is not None and "decision" not in reply.output
    msg = reply.output["systemMessage"]
    assert f"escalated ({reason})" in msg and "tri-bbbbbbbb" in msg and "goalkeeper triage show tri-bbbbbbbb" in msg


def test_one_goal_not_done_blocks_even_when_another_escalated_or_failed_to_check() -> None:
    reply = stop_reply([
        CheckOutcome("goal-aaaaaaaa", "a", _verdict("escalated", reason="tampering", triageId="tri-cccccccc")),
        CheckOutcome("goal-bbbbbbbb", "b", error="goal goal-bbbbbbbb is already running (pid 7)"),
        CheckOutcome("goal-dddddddd", "d", _verdict("active", failing=["ruff check .: 3 findings"])),
    ])
    assert reply.output is not None and reply.output["decision"] == "block"
    assert "goal-dddddddd" in reply.output["reason"] and "goal-aaaaaaaa" not in reply.output["reason"]
    assert "tri-cccccccc" in reply.output["systemMessage"] and "already running" in reply.output["systemMessage"]


def test_stop_hook_active_lets_only_an_unbounded_goal_stop() -> None:
    def reply(active: bool, is_bounded: bool) -> dict[str, Any] | None:
        return stop_reply([CheckOutcome("goal-aaaaaaaa", "o", _verdict("active", failing=["pytest: 1 failed"]),
                                        bounded=is_bounded)], stop_hook_active=active).output

    for active, is_bounded in ((False, True), (True, True), (False, False)):
        out = reply(active, is_bounded)
        assert out is not None and out["decision"] == "block"  # the budget ends the loop, not Claude Code's cap
    out = reply(True, False)
    assert out is not None and "decision" not in out
    assert "no budget" in out["systemMessage"] and "--max-iterations" in out["systemMessage"]


def test_a_goal_is_bounded_by_any_limit(tmp_path: Path) -> None:
    g = _goal(tmp_path)
    for its, dur, dollars, want in ((15, "2h", None, True), (None, "2h", None, True), (3, None, None, True),
                                    (None, None, 1.0, True), (None, None, None, False)):
        g.budget.max_iterations, g.budget.max_duration, g.budget.max_dollars = its, dur, dollars
        assert bounded(g) is want


def test_stop_with_nothing_bound_says_nothing() -> None:
    assert stop_reply([]).output is None and stop_reply([]).text() == ""


def test_a_huge_hint_is_cut_to_a_reason_claude_can_read() -> None:
    reply = stop_reply([CheckOutcome("goal-aaaaaaaa", "o", _verdict("active", nextHint="x" * 100_000,
                                                                    failing=["f" * 10_000] * 50))])
    assert reply.output is not None and len(reply.output["reason"]) <= 6000 and "[... cut ...]" in reply.output["reason"]


def test_session_start_lists_open_goals_of_this_workspace(tmp_path: Path) -> None:
    ws, elsewhere = tmp_path / "ws", tmp_path / "other"
    ws.mkdir()
    elsewhere.mkdir()
    goals = [
        _goal(ws, gid="goal-aaaaaaaa", hint="make add() add"),
        _goal(ws, gid="goal-bbbbbbbb", state="paused", maker="command"),
        _goal(ws, gid="goal-cccccccc", session="someone-else"),
        _goal(ws, gid="goal-dddddddd", state="converged"),
        _goal(elsewhere, gid="goal-eeeeeeee"),
    ]
    reply = start_reply(goals, ws, "me")
    assert reply.output is not None
    out = reply.output["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart"
    ctx = out["additionalContext"]
    assert "3 open goal(s)" in ctx
    assert "goal-aaaaaaaa [active, iteration 1/15] make the tests pass (you are its maker" in ctx
    assert "last hint: make add() add" in ctx
    assert "goal-bbbbbbbb [paused" in ctx and "goal-cccccccc" in ctx and "another agent session" in ctx
    assert "goal-dddddddd" not in ctx and "goal-eeeeeeee" not in ctx
    assert start_reply(goals, tmp_path, "me").output is None  # above every workspace: not inside one


def test_an_unknown_event_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown hook event"):
        handle_hook("pre-tool-use", b"{}")
