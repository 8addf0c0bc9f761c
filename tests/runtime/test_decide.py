"""The pure tick decision and action verdict: decide, judge, corrections, blocked_now."""

from __future__ import annotations

import pytest

from goalkeeper.runtime.decide import (
    Escalate,
    Execute,
    Reached,
    blocked_now,
    corrections,
    decide,
    goal_holds,
    judge,
)

from .helpers import spec_from

# fast is the cheap route; prep -> slow is the detour around it.
ROUTES = spec_from("""
    goalkeeper: 1
    goal: {done: true}
    facts:
      done: {observe: {file: done}}
      prepped: {observe: {file: prepped}}
    actions:
      fast:
        pre: {done: false}
        effects: {done: true}
      prep:
        pre: {prepped: false}
        effects: {prepped: true}
        cost: 2
      slow:
        pre: {prepped: true, done: false}
        effects: {done: true}
        cost: 2
""")

# deploy needs pinned; pin needs allowed, which no action sets.
LOCKED = spec_from("""
    goalkeeper: 1
    goal: {healthy: true}
    facts:
      healthy: {observe: {file: h}}
      pinned: {observe: {file: p}}
      allowed: {observe: {file: a}}
    actions:
      deploy:
        pre: {pinned: true}
        effects: {healthy: true}
      pin:
        pre: {allowed: true}
        effects: {pinned: true}
""")

NUMERIC = spec_from("""
    goalkeeper: 1
    goal: {latency: {'<': 200}, ready: true}
    facts:
      latency: {type: int, observe: {command: 'echo 500'}}
      size: {type: int, observe: {command: 'echo 1'}}
      ready: {observe: {file: r}}
      audit: {diagnostic: true, observe: {file: audit}}
    actions:
      tune:
        pre: {ready: true}
        effects: {latency: 100, audit: true}
      ship:
        pre: {latency: {'<=': 120}}
        effects: {ready: true}
      grow:
        effects: {size: 10}
""")

START = {"done": False, "prepped": False}


def test_goal_holds() -> None:
    assert goal_holds(ROUTES, {"done": True})
    assert not goal_holds(ROUTES, {"done": False})
    assert not goal_holds(ROUTES, {"done": None})  # unknown never satisfies
    assert not goal_holds(ROUTES, {})


def test_reached_wins_over_the_tick_cap() -> None:
    assert decide(ROUTES, {"done": True, "prepped": False}, ticks=9, max_ticks=3, blocked=[]) == Reached()


@pytest.mark.parametrize(("ticks", "cap"), [(3, 3), (4, 3), (1, 1)])
def test_tick_cap_escalates(ticks: int, cap: int) -> None:
    d = decide(ROUTES, START, ticks=ticks, max_ticks=cap, blocked=[])
    assert isinstance(d, Escalate) and d.reason == "tick_cap"
    assert str(cap) in d.message and str(ticks) in d.message


@pytest.mark.parametrize(("ticks", "cap"), [(2, 3), (0, 1), (10_000, None)])
def test_under_the_cap_or_unbounded_executes(ticks: int, cap: int | None) -> None:
    d = decide(ROUTES, START, ticks=ticks, max_ticks=cap, blocked=[])
    assert isinstance(d, Execute) and d.action == "fast"


def test_execute_is_the_first_step_of_the_cheapest_plan() -> None:
    d = decide(ROUTES, START, ticks=0, max_ticks=None, blocked=[])
    assert isinstance(d, Execute)
    assert d.action == "fast" and d.result.plan == ("fast",)


def test_blocked_first_action_takes_the_detour() -> None:
    d = decide(ROUTES, START, ticks=0, max_ticks=None, blocked=["fast"])
    assert isinstance(d, Execute)
    assert d.action == "prep"
    assert d.result.plan == ("prep", "slow")
    assert "fast" not in d.result.plan


def test_blocked_action_later_in_the_plan_does_not_detour() -> None:
    d = decide(ROUTES, {"done": False, "prepped": False}, ticks=0, max_ticks=None, blocked=["slow"])
    assert isinstance(d, Execute) and d.action == "fast"


def test_blocked_with_no_other_route_escalates_no_admissible_action() -> None:
    d = decide(ROUTES, START, ticks=0, max_ticks=None, blocked=["fast", "prep"])
    assert isinstance(d, Escalate)
    assert d.reason == "no_admissible_action"
    assert d.blocked == ("fast", "prep")
    assert "fast" in d.message and "not be retried" in d.message
    assert d.result is not None and d.result.found  # the plan it would have needed


def test_unreachable_escalates_with_the_gap_tree() -> None:
    d = decide(LOCKED, {"healthy": False, "pinned": False, "allowed": False}, ticks=0, max_ticks=25,
               blocked=[])
    assert isinstance(d, Escalate) and d.reason == "unreachable"
    assert d.result is not None and not d.result.found
    gaps = d.result.to_dict()["gaps"]
    assert {"action": "deploy", "fact": "pinned", "condition": "== true", "root": False} in gaps
    assert {"action": "pin", "fact": "allowed", "condition": "== true", "root": True} in gaps
    assert [u.fact for u in d.result.unreachable] == ["healthy"]


def test_unknown_fact_makes_a_precondition_unsatisfiable() -> None:
    d = decide(LOCKED, {"healthy": False, "pinned": None, "allowed": True}, ticks=0, max_ticks=25,
               blocked=[])
    assert isinstance(d, Execute) and d.action == "pin"  # unknown pinned is not assumed true


# -- blocked_now ------------------------------------------------------------------


def test_blocked_now_holds_while_nothing_changed() -> None:
    snap = {"done": False, "prepped": False, "__spec__": "abc"}
    assert blocked_now({"fast": snap}, {"done": False, "prepped": False}, "abc") == ["fast"]


@pytest.mark.parametrize(
    ("facts", "sha"),
    [
        ({"done": False, "prepped": True}, "abc"),  # a fact changed
        ({"done": False, "prepped": None}, "abc"),  # a fact became unknown
        ({"done": False, "prepped": False, "new": 1}, "abc"),  # a new fact appeared
        ({"done": False, "prepped": False}, "def"),  # the spec changed
    ],
)
def test_blocked_now_lifts_on_any_input_change(facts: dict[str, object], sha: str) -> None:
    snap = {"done": False, "prepped": False, "__spec__": "abc"}
    assert blocked_now({"fast": snap}, facts, sha) == []


def test_blocked_now_is_sorted_and_per_action() -> None:
    snap = {"x": 1, "__spec__": "s"}
    other = {"x": 2, "__spec__": "s"}
    assert blocked_now({"zeta": snap, "alpha": snap, "mid": other}, {"x": 1}, "s") == ["alpha", "zeta"]


# -- judge ------------------------------------------------------------------------


def test_judge_nonzero_exit_fails_with_the_exit_text() -> None:
    v = judge(ROUTES, "fast", False, "exit 2: boom", {"done": True})
    assert not v.ok and v.reason == "exit 2: boom" and v.missing == ()


def test_judge_exit_zero_with_effects_is_ok() -> None:
    v = judge(ROUTES, "fast", True, "exit 0", {"done": True, "prepped": False})
    assert v.ok and v.reason == "exit 0"


@pytest.mark.parametrize("observed", [False, None])
def test_judge_exit_zero_without_effects_fails_and_names_the_fact(observed: bool | None) -> None:
    v = judge(ROUTES, "fast", True, "exit 0", {"done": observed})
    assert not v.ok
    assert "effects did not happen" in v.reason
    assert len(v.missing) == 1 and v.missing[0].startswith("done ")
    assert "expected true" in v.missing[0]


def test_judge_numeric_effect_counts_when_every_relied_on_condition_holds() -> None:
    # claimed 100 satisfies goal latency < 200 and ship's latency <= 120
    assert judge(NUMERIC, "tune", True, "exit 0", {"latency": 100}).ok
    assert judge(NUMERIC, "tune", True, "exit 0", {"latency": 90}).ok
    # 150 satisfies the goal but not ship's precondition that the planner relied on
    v = judge(NUMERIC, "tune", True, "exit 0", {"latency": 150})
    assert not v.ok and v.missing and v.missing[0].startswith("latency")
    assert not judge(NUMERIC, "tune", True, "exit 0", {"latency": 250}).ok
    assert not judge(NUMERIC, "tune", True, "exit 0", {"latency": None}).ok


def test_judge_numeric_effect_without_any_condition_needs_equality() -> None:
    assert judge(NUMERIC, "grow", True, "exit 0", {"size": 10}).ok
    assert not judge(NUMERIC, "grow", True, "exit 0", {"size": 11}).ok


def test_judge_ignores_effects_on_diagnostic_facts() -> None:
    # audit is diagnostic: not re-observed per tick, so it cannot fail the verdict
    assert judge(NUMERIC, "tune", True, "exit 0", {"latency": 100}).ok


# -- corrections ------------------------------------------------------------------


def test_corrections_lists_only_facts_that_differ() -> None:
    believed = {"deployed": True, "env_pinned": True, "tests": True}
    observed = {"deployed": False, "env_pinned": False, "tests": True}
    assert corrections(believed, observed) == [
        {"fact": "deployed", "believed": True, "observed": False},
        {"fact": "env_pinned", "believed": True, "observed": False},
    ]


def test_corrections_unknown_and_unbelieved() -> None:
    assert corrections({"a": 1}, {"a": None, "b": 2}) == [
        {"fact": "a", "believed": 1, "observed": None},
        {"fact": "b", "believed": None, "observed": 2},
    ]
    assert corrections({"a": 1}, {"a": 1}) == []
