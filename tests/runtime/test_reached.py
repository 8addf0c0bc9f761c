"""The goal is reached only on observed values, never on a belief."""

from __future__ import annotations

from pathlib import Path

from goalkeeper.runtime import RunOptions, RunStore, start_run

SPEC = """
goalkeeper: 1
goal: {ok: true}
facts:
  ok: {diagnostic: true, initial: true, observe: {file: ok}}
actions:
  make_ok: {effects: {ok: true}, run: [touch, ok]}
"""


def test_a_believed_goal_is_checked_before_done(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    state = start_run(spec, RunOptions())
    # The initial belief said ok; the observation said no, so the agent had to act.
    assert state.status == "reached"
    assert [t.action for t in state.history] == ["make_ok"]
    assert (tmp_path / "ok").exists()
    fresh = [e for e in RunStore(state.run_id).events() if e["event"] == "facts.observed" and e.get("fresh")]
    assert fresh[0]["facts"] == {"ok": False} and fresh[-1]["facts"] == {"ok": True}


def test_a_goal_that_never_holds_when_observed_escalates(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.replace("run: [touch, ok]", "run: [\"true\"]"))
    state = start_run(spec, RunOptions(max_ticks=3))
    assert state.status == "escalated"
    assert not (tmp_path / "ok").exists()
