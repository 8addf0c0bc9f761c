"""The tick machine alone: scripted worlds, no processes, no files. Every decision of a run."""

from __future__ import annotations

from typing import Any

import pytest

from goalkeeper.runtime.decide import SpecModel
from goalkeeper.runtime.ledger import Ledger, replay
from goalkeeper.runtime.machine import (
    Acted,
    Commit,
    Confirm,
    Done,
    Escalate,
    MachineError,
    Observe,
    Observed,
    Options,
    Proposed,
    Resume,
    RunMachine,
)

from .helpers import ScriptedWorld, spec_from

# fast is the cheap route; prep -> slow is the detour around it.
ROUTES = spec_from("""
    goalkeeper: 1
    goal: {done: true}
    facts:
      done: {observe: {file: done}}
      prepped: {observe: {file: prepped}}
    actions:
      fast: {pre: {done: false}, effects: {done: true}}
      prep: {pre: {prepped: false}, effects: {prepped: true}, cost: 2}
      slow: {pre: {prepped: true, done: false}, effects: {done: true}, cost: 2}
    policy: {strikes: 2}
""")

# deploy needs pinned; pin needs allowed, which no action sets.
LOCKED = spec_from("""
    goalkeeper: 1
    name: locked
    goal: {healthy: true}
    facts:
      healthy: {observe: {file: h}}
      pinned: {observe: {file: p}}
      allowed: {observe: {file: a}}
    actions:
      deploy: {pre: {pinned: true}, effects: {healthy: true}}
      pin: {pre: {allowed: true}, effects: {pinned: true}}
""")

BELIEF = spec_from("""
    goalkeeper: 1
    goal: {ok: true}
    facts:
      ok: {diagnostic: true, initial: true, observe: {file: ok}}
    actions:
      make_ok: {effects: {ok: true}}
""")

WIPE = spec_from("""
    goalkeeper: 1
    goal: {done: true}
    facts:
      done: {observe: {file: done}}
      ready: {diagnostic: true, initial: true, observe: {file: ready}}
    actions:
      wipe: {pre: {ready: true, done: false}, effects: {done: true}, destructive: true, confirm: true}
      prepare: {pre: {done: false}, effects: {ready: true}, cost: 5}
    policy: {strikes: 3}
""")

START = {"done": False, "prepped": False}


def folded(world: ScriptedWorld, start: Ledger | None = None) -> Ledger:
    """The ledger rebuilt from the events alone."""
    ledger = start or Ledger(max_ticks=world.spec.policy.max_ticks)
    replay(ledger, world.events)
    return ledger


def run(spec: Any, facts: dict[str, Any], **kw: Any) -> tuple[ScriptedWorld, Ledger]:
    options = kw.pop("options", None)
    ledger = kw.pop("ledger", None)
    world = ScriptedWorld(spec, facts, **kw)
    return world, world.drive(options, ledger)


# -- done only on what was observed just now -------------------------------------------


def test_a_goal_that_holds_is_checked_fresh_and_nothing_runs() -> None:
    w, led = run(ROUTES, {"done": True, "prepped": False})
    assert w.kinds() == ["run.started", "facts.observed", "facts.observed", "run.reached"]
    assert w.events[2]["fresh"] is True and w.events[2]["facts"] == {"done": True}
    assert led.status == "reached" and led.tick == 0 and w.acted() == []


def test_a_believed_goal_is_never_reached_without_acting() -> None:
    w, led = run(BELIEF, {"ok": False})
    assert led.status == "reached" and w.acted() == ["make_ok"]
    fresh = [e["facts"] for e in w.events if e["event"] == "facts.observed" and e.get("fresh")]
    assert fresh == [{"ok": False}, {"ok": True}]


def test_the_goal_reached_wins_over_the_tick_cap() -> None:
    w, led = run(ROUTES, {"done": True, "prepped": False}, ledger=Ledger(tick=9, max_ticks=3))
    assert led.status == "reached"


# -- the tick cap -------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [0, 1])
def test_the_tick_cap_escalates_with_both_numbers(cap: int) -> None:
    w, led = run(ROUTES, START, outcomes={"fast": "fail"}, ledger=Ledger(max_ticks=cap))
    esc = next(i for i in w.instructions if isinstance(i, Escalate))
    assert esc.reason == "tick_cap" and f"{cap} of max_ticks {cap}" in esc.message
    assert led.tick == cap and led.status == "escalated"
    assert any("max_ticks" in s for s in esc.suggestions)


# -- planning, strikes, replans -----------------------------------------------------------


def test_one_action_per_tick_first_step_of_the_cheapest_plan() -> None:
    w, _ = run(ROUTES, START)
    plans = [e for e in w.events if e["event"] == "plan.made"]
    assert plans[0]["plan"] == ["fast"] and plans[0]["excluded"] == []
    k = w.kinds()
    i = k.index("tick.started")
    assert k[i:i + 3] == ["tick.started", "facts.observed", "action.finished"]


def test_strikes_replan_from_fresh_observations_and_block_until_something_changes() -> None:
    w, led = run(ROUTES, START, outcomes={"fast": "fail"})
    # prep changes a fact, which lifts the block on fast: it gets its strikes again first.
    assert w.acted() == ["fast", "fast", "prep", "fast", "fast", "slow"] and led.status == "reached"
    assert [r["blocked"] for r in led.replans] == [["fast"], ["fast"]]
    finished = [(e["action"], e["outcome"], e["strikes"]) for e in w.events if e["event"] == "action.finished"]
    assert finished[:2] == [("fast", "failed", 1), ("fast", "failed", 2)]
    i = w.kinds().index("run.replanned")
    assert set(w.events[i - 1]["facts"]) == {"done", "prepped"}  # every fact re-observed
    assert w.events[i]["failed"] == ["fast"] and w.events[i]["blocked"] == ["fast"]
    nxt = next(e for e in w.events[i:] if e["event"] == "plan.made")
    assert nxt["plan"] == ["prep", "slow"] and nxt["excluded"] == ["fast"]


def test_a_block_later_in_the_plan_does_not_force_a_detour() -> None:
    ledger = Ledger(blocked={"slow": {**START, "__spec__": ""}})
    w, _ = run(ROUTES, START, ledger=ledger)
    assert w.acted() == ["fast"]


def test_no_other_route_escalates_no_admissible_action() -> None:
    w, led = run(ROUTES, START, outcomes={"fast": "fail", "prep": "fail"})
    esc = next(i for i in w.instructions if isinstance(i, Escalate))
    assert esc.reason == "no_admissible_action" and esc.severity == "critical"
    assert esc.blocked == ("fast", "prep") and "not be retried silently" in esc.message
    assert w.kinds()[-2:] == ["run.replanned", "run.escalated"] and led.status == "escalated"


def test_an_unknown_fact_satisfies_no_precondition() -> None:
    w, _ = run(LOCKED, {"healthy": False, "pinned": None, "allowed": True})
    assert w.acted()[0] == "pin"


def test_effects_that_did_not_happen_fail_the_action_and_name_the_fact() -> None:
    w, _ = run(ROUTES, START, outcomes={"fast": "noop"}, ledger=Ledger(max_ticks=1))
    fin = next(e for e in w.events if e["event"] == "action.finished")
    assert fin["outcome"] == "failed" and fin["missingEffects"] == ["done (expected true, observed false)"]
    assert fin["reason"].startswith("exited 0 but its effects did not happen")


def test_an_interrupted_action_is_re_observed_and_costs_no_strike() -> None:
    w, led = run(ROUTES, START, outcomes={"fast": "lost"}, ledger=Ledger(max_ticks=1))
    i = w.kinds().index("action.interrupted")
    assert w.kinds()[i + 1] == "facts.observed" and w.events[i]["strikes"] == 0
    assert led.history[0]["outcome"] == "interrupted" and led.strikes == 0


# -- destructive actions, approval, refusals ---------------------------------------------------


def test_a_destructive_action_is_re_checked_fresh_and_refused_which_costs_a_tick() -> None:
    w, led = run(WIPE, {"done": False, "ready": False}, options=Options(yes=True))
    refused = [e for e in w.events if e["event"] == "action.refused"]
    assert refused[0]["action"] == "wipe" and refused[0]["tick"] == 1 and refused[0]["strikes"] == 1
    assert "ready == true" in refused[0]["reason"]
    i = w.kinds().index("action.refused")
    assert w.events[i - 1]["fresh"] is True and w.events[i - 1]["facts"] == {"done": False, "ready": False}
    assert w.acted() == ["prepare", "wipe"]  # never ran against the unsafe world
    assert [h["tick"] for h in led.history] == [1, 2, 3]


def test_refusals_alone_hit_the_tick_cap() -> None:
    w, led = run(WIPE, {"done": False, "ready": False}, options=Options(yes=True), ledger=Ledger(max_ticks=1))
    assert w.acted() == [] and led.tick == 1
    assert led.escalation is not None and "tick cap" in led.escalation["message"]


@pytest.mark.parametrize(("approve", "acted", "reason"), [
    (True, ["wipe"], None),
    (None, [], "needs approval (confirm: true); re-run with --yes"),
    (False, [], "was declined"),
])
def test_confirm_asks_only_without_yes(approve: bool | None, acted: list[str], reason: str | None) -> None:
    w, led = run(WIPE, {"done": False, "ready": True}, approve=approve)
    assert [i.action for i in w.instructions if isinstance(i, Confirm)] == ["wipe"]
    assert w.acted() == acted
    if reason:
        assert led.escalation is not None and led.escalation["reason"] == "approval_required"
        assert reason in led.escalation["message"]
    w, _ = run(WIPE, {"done": False, "ready": True}, options=Options(yes=True))
    assert not any(isinstance(i, Confirm) for i in w.instructions)


# -- escalation context ------------------------------------------------------------------------


def test_unreachable_names_the_fact_and_the_precondition_that_closes_the_gap() -> None:
    opts = Options(name="locked", until=("goalkeeper observe /w/spec.yaml --check",), workspace="/w")
    w, led = run(LOCKED, {"healthy": False, "pinned": False, "allowed": False}, options=opts,
                 ledger=Ledger(spec_path="/w/spec.yaml"))
    (esc,) = [i for i in w.instructions if isinstance(i, Escalate)]
    assert esc.reason == "unreachable" and esc.severity == "critical"
    assert esc.message == ("no sequence of available actions makes healthy hold; it closes when this holds: "
                           "allowed == true (needed by pin)")
    assert esc.summary.startswith("locked: ")
    assert {"action": "pin", "fact": "allowed", "condition": "== true", "root": True} in esc.gaps
    assert [u["fact"] for u in esc.unreachable] == ["healthy"]
    ctx = esc.context
    assert ctx["until"] == ["goalkeeper observe /w/spec.yaml --check"] and ctx["workspace"] == "/w"
    assert ctx["gap_facts"] == ["allowed", "healthy", "pinned"] and ctx["spec"] == "/w/spec.yaml"
    assert any("allowed == true" in s for s in esc.suggestions)
    assert w.events[-1]["triageId"] == "tri-scripted" and led.escalation == {
        "reason": "unreachable", "message": esc.message, "triage_id": "tri-scripted", "report": "report.md",
        "gaps": list(esc.gaps)}


# -- the ledger is the fold of the events --------------------------------------------------------


@pytest.mark.parametrize(("spec", "facts", "outcomes"), [
    (ROUTES, START, {"fast": "fail"}),
    (ROUTES, START, {"fast": "fail", "prep": "fail"}),
    (WIPE, {"done": False, "ready": False}, {}),
    (BELIEF, {"ok": False}, {}),
    (ROUTES, START, {"fast": "lost"}),
])
def test_replaying_the_events_rebuilds_the_ledger(spec: Any, facts: dict[str, Any], outcomes: dict[str, Any]) -> None:
    w, led = run(spec, facts, outcomes=outcomes, options=Options(yes=True),
                 ledger=Ledger(max_ticks=spec.policy.max_ticks))
    assert folded(w).to_dict() == led.to_dict()
    assert [e["seq"] for e in w.events] == list(range(1, len(w.events) + 1))


# -- resuming -------------------------------------------------------------------------------------


def test_resume_records_the_interrupted_action_and_the_spec_change() -> None:
    ledger = Ledger(spec_path="/a", spec_sha256="old", tick=2, facts={"done": False, "prepped": False, "gone": 1},
                    pending={"tick": 2, "action": "fast", "started": "t"}, seq=7)
    opts = Options(resume=Resume("/a", "new", max_ticks=5, dropped=("gone",)))
    w, led = run(ROUTES, START, options=opts, ledger=ledger)
    assert w.kinds()[:4] == ["run.resumed", "spec.changed", "action.interrupted", "facts.observed"]
    assert w.events[0]["seq"] == 8 and w.events[0]["maxTicks"] == 5
    assert "gone" not in led.facts and led.spec_sha256 == "new" and led.max_ticks == 5
    assert led.history[0]["outcome"] == "interrupted" and led.pending is None


# -- the hybrid runtime: a model proposes, code decides -------------------------------------------

HYBRID = Options(hybrid=True)


def test_good_proposals_run_and_their_claims_are_checked() -> None:
    w, led = run(ROUTES, START, options=HYBRID, proposals=[Proposed("fast", {"done": True}, cost_dollars=0.5)])
    assert led.status == "reached" and led.cost_dollars == 0.5
    claims = next(e for e in w.events if e["event"] == "claims.checked")
    assert claims["differences"] == []


@pytest.mark.parametrize(("proposal", "needle"), [
    (Proposed("fast", {"done": True, "prepped": True}), "false claim"),
    (Proposed("fast", {"done": 1}), "false claim"),
    (Proposed("slow", {"done": True}), "precondition prepped == true does not hold"),
    (Proposed("nope", {}), "unknown action 'nope'"),
    (Proposed("DONE"), "claimed DONE"),
    (Proposed("ESCALATE"), "asked to escalate"),
])
def test_bad_proposals_are_refused_at_the_cost_of_a_tick(proposal: Proposed, needle: str) -> None:
    w, led = run(ROUTES, START, options=HYBRID, proposals=[proposal, Proposed("fast", {"done": True})])
    refused = next(e for e in w.events if e["event"] == "action.refused")
    assert needle in refused["reason"] and refused["tick"] == 1
    assert w.acted() == ["fast"] and led.tick == 2 and led.status == "reached"


def test_an_unusable_model_escalates_after_strikes_answers_and_the_budget_holds() -> None:
    w, led = run(ROUTES, START, options=HYBRID, proposals=[Proposed(None, error="garbage")] * 2)
    assert led.escalation is not None and led.escalation["reason"] == "model_unavailable"
    w, led = run(ROUTES, START, options=Options(hybrid=True), ledger=Ledger(max_dollars=1.0),
                 proposals=[Proposed("fast", {"done": True}, cost_dollars=1.5)])
    assert led.escalation is not None and led.escalation["reason"] == "budget_exhausted" and w.acted() == []


# -- the protocol ---------------------------------------------------------------------------------


def test_a_wrong_answer_or_a_send_after_done_is_a_machine_error() -> None:
    m = RunMachine(SpecModel(ROUTES), Ledger())
    assert isinstance(m.send(), Commit)
    assert isinstance(m.send(None), Observe)
    with pytest.raises(MachineError, match="expected Observed, got Acted"):
        m.send(Acted(True, "exit 0"))
    m = RunMachine(SpecModel(ROUTES), Ledger())
    i = m.send()
    answers: dict[type, Any] = {Observe: Observed({"done": True, "prepped": False})}
    while not isinstance(i, Done):
        i = m.send(answers.get(type(i)))
    with pytest.raises(MachineError, match="over"):
        m.send(None)
