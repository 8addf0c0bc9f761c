"""Hybrid runtime: the model proposes, code validates, real commands run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.build.prompts import system_prompt
from goalkeeper.llm import ScriptedProvider
from goalkeeper.model import load_spec
from goalkeeper.runtime import RunOptions, RunStore, start_run
from goalkeeper.runtime.hybrid import LLMProposer, Proposal, check_proposal, claim_diff

SPEC = """
goalkeeper: 1
name: pipeline
goal: {released: true}
facts:
  built: {observe: {file: built}}
  tested: {observe: {file: tested}}
  released: {observe: {file: released}}
  approved: {observe: {file: approved}}
actions:
  build:
    effects: {built: true}
    pre: {built: false}
    run: [touch, built]
  test:
    pre: {built: true}
    effects: {tested: true}
    run: [touch, tested]
  release:
    pre: {tested: true, approved: true}
    effects: {released: true}
    destructive: true
    run: [touch, released]
policy: {max_ticks: 10, strikes: 3}
"""


def ans(action: str, expects: dict[str, Any] | None = None, reason: str = "next step") -> str:
    return json.dumps({"action": action, "expects": expects or {}, "reason": reason})


BUILD = ans("build", {"built": True})
TEST = ans("test", {"tested": True})
RELEASE = ans("release", {"released": True})


@pytest.fixture
def spec_path(tmp_path: Path) -> Path:
    p = tmp_path / "spec.yaml"
    p.write_text(SPEC)
    (tmp_path / "approved").write_text("yes\n")
    return p


def run(spec_path: Path, answers: list[str], **kw: Any) -> tuple[Any, list[dict[str, Any]], ScriptedProvider]:
    llm = ScriptedProvider(answers, cost_per_call=kw.pop("cost", 0.0))
    spec = load_spec(spec_path)
    proposer = LLMProposer(spec, llm, "scripted-model", system_prompt(spec, proposer=True))
    state = start_run(spec_path, RunOptions(proposer=proposer, **kw))
    return state, RunStore(state.run_id).events(), llm


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


def test_good_proposals_reach_the_goal(spec_path: Path) -> None:
    state, events, llm = run(spec_path, [BUILD, TEST, RELEASE], cost=0.01)
    assert state.status == "reached"
    assert [t.action for t in state.history] == ["build", "test", "release"]
    assert state.runtime == "hybrid" and state.model == "scripted-model"
    assert state.cost_dollars == pytest.approx(0.03)
    claims = [e for e in events if e["event"] == "claims.checked"]
    assert len(claims) == 3 and all(c["differences"] == [] for c in claims)
    # The model saw the observed state, never a command line.
    first = json.loads(llm.calls[0].messages[-1]["content"])
    assert first["observed_state"]["built"] is False


def test_precondition_violation_is_refused_and_struck(spec_path: Path) -> None:
    # Proposes release before anything is built: refused three times, then blocked.
    state, events, _ = run(spec_path, [RELEASE] * 3 + [BUILD, TEST, RELEASE])
    refused = [t for t in state.history if t.outcome == "refused"]
    assert len(refused) == 3 and all("precondition" in t.reason for t in refused)
    assert "run.replanned" in kinds(events)
    # release was blocked at the replan; building changed facts, so it was allowed again.
    assert state.status == "reached"
    assert (spec_path.parent / "released").exists()


def test_destructive_refused_on_fresh_observation(spec_path: Path) -> None:
    # Believed approved (diagnostic, initial true), but the approval is gone right now.
    spec_path.write_text(SPEC.replace(
        "approved: {observe: {file: approved}}",
        "approved: {diagnostic: true, initial: true, observe: {file: approved}}",
    ))
    (spec_path.parent / "approved").unlink()
    state, events, _ = run(spec_path, [BUILD, TEST, RELEASE, RELEASE, RELEASE])
    assert not (spec_path.parent / "released").exists()
    reasons = [t.reason for t in state.history if t.outcome == "refused"]
    assert reasons and all("destructive action refused" in r for r in reasons)
    assert state.status == "escalated"


def test_false_claim_is_refused(spec_path: Path) -> None:
    lie = ans("build", {"built": True, "released": True})
    state, _, _ = run(spec_path, [lie, BUILD, TEST, RELEASE])
    assert state.history[0].outcome == "refused"
    assert "false claim" in state.history[0].reason
    assert not (spec_path.parent / "built").exists() or state.history[1].action == "build"
    assert state.status == "reached"


def test_malformed_answers_become_a_strike_not_a_crash(spec_path: Path) -> None:
    state, _, llm = run(spec_path, ["not json", "{oops", "still no", BUILD, TEST, RELEASE])
    assert state.history[0].outcome == "refused"
    assert "no valid proposal" in state.history[0].reason
    assert len(llm.calls) == 6  # 1 ask + 2 re-asks, then the three good answers
    assert state.status == "reached"


def test_done_claim_while_goal_does_not_hold_is_refused(spec_path: Path) -> None:
    state, _, _ = run(spec_path, [ans("DONE"), BUILD, TEST, RELEASE])
    assert "claimed DONE" in state.history[0].reason


def test_dollar_budget_escalates(spec_path: Path) -> None:
    state, _, _ = run(spec_path, [BUILD, TEST, RELEASE], cost=0.6, max_dollars=1.0)
    assert state.status == "escalated"
    assert state.escalation is not None and state.escalation["reason"] == "budget_exhausted"
    assert "limit 1.0" in state.escalation["message"]


def test_check_proposal_and_claim_diff_are_pure(spec_path: Path) -> None:
    spec = load_spec(spec_path)
    facts = {"built": False, "tested": False, "released": False, "approved": True}
    assert check_proposal(spec, Proposal(action="build", expects={"built": True}), facts, []) == []
    assert check_proposal(spec, Proposal(action="deploy"), facts, [])[0].startswith("unknown action")
    assert any("blocked" in p for p in check_proposal(spec, Proposal(action="build", expects={"built": True}), facts, ["build"]))
    assert claim_diff({"built": True}, {"built": False}) == [{"fact": "built", "claimed": True, "observed": False}]


def test_a_model_that_never_answers_usably_escalates_instead_of_burning_ticks(spec_path: Path) -> None:
    state, _, llm = run(spec_path, ["nope"] * 20)
    assert state.status == "escalated"
    assert state.escalation is not None and state.escalation["reason"] == "model_unavailable"
    assert len(llm.calls) == 9  # 3 proposals x (1 ask + 2 re-asks), then stop
    assert not (spec_path.parent / "built").exists()
