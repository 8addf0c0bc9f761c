"""SpecModel: a spec as the tick machine sees it (conditions, effects, the planner)."""

from __future__ import annotations

from goalkeeper.runtime.decide import SpecModel, goal_holds

from .helpers import spec_from

LOCKED = SpecModel(spec_from("""
    goalkeeper: 1
    goal: {healthy: true}
    facts:
      healthy: {observe: {file: h}}
      pinned: {observe: {file: p}}
      allowed: {observe: {file: a}}
      note: {type: str, diagnostic: true, initial: "x", observe: {file: n}}
    actions:
      deploy: {pre: {pinned: true}, effects: {healthy: true}}
      pin: {pre: {allowed: true, note: {in: ["x", "y"]}}, effects: {pinned: true}, destructive: true}
"""))

NUMERIC = SpecModel(spec_from("""
    goalkeeper: 1
    goal: {latency: {'<': 200}, ready: true}
    facts:
      latency: {type: int, observe: {command: 'echo 500'}}
      size: {type: int, observe: {command: 'echo 1'}}
      ready: {observe: {file: r}}
    actions:
      tune: {pre: {ready: true}, effects: {latency: 100}}
      ship: {pre: {latency: {'<=': 120}}, effects: {ready: true}}
      grow: {effects: {size: 10}}
"""))


def test_goal_holds_never_on_unknown() -> None:
    assert goal_holds(LOCKED.spec, {"healthy": True}) and LOCKED.goal_holds({"healthy": True})
    assert not LOCKED.goal_holds({"healthy": None}) and not LOCKED.goal_holds({})


def test_the_model_describes_facts_and_actions_in_spec_order() -> None:
    assert list(LOCKED.facts) == ["healthy", "pinned", "allowed", "note"]
    assert LOCKED.facts["note"].diagnostic and LOCKED.facts["note"].initial == "x"
    pin = LOCKED.actions["pin"]
    assert pin.pre_facts == ("allowed", "note") and pin.effects == (("pinned", True),) and pin.destructive
    assert LOCKED.goal_facts == ("healthy",) and LOCKED.strikes == 3


def test_unmet_names_each_failing_precondition_in_goalkeepers_words() -> None:
    assert LOCKED.unmet("pin", {"allowed": False, "note": "z"}) == [
        ("allowed", "allowed == true"), ("note", "note in ['x', 'y']")]
    assert LOCKED.unmet("pin", {"allowed": True, "note": "y"}) == []


def test_a_measured_number_counts_when_every_relied_on_condition_holds() -> None:
    # claimed 100 satisfies the goal's latency < 200 and ship's latency <= 120
    assert NUMERIC.effect_holds("latency", 100, 100) and NUMERIC.effect_holds("latency", 100, 90)
    assert not NUMERIC.effect_holds("latency", 100, 150)  # not ship's precondition
    assert not NUMERIC.effect_holds("latency", 100, None)
    # no condition relies on size: only the claimed value will do
    assert NUMERIC.effect_holds("size", 10, 10) and not NUMERIC.effect_holds("size", 10, 11)


def test_plan_views_found_and_unreachable() -> None:
    found = LOCKED.plan({"healthy": False, "pinned": False, "allowed": True, "note": "x"}, ())
    assert found.found and found.plan == ("pin", "deploy") and found.cost == 2
    assert not LOCKED.plan({"healthy": False, "pinned": False, "allowed": True, "note": "x"}, ["pin"]).found
    gone = LOCKED.plan({"healthy": False, "pinned": False, "allowed": False, "note": "x"}, ())
    assert not gone.found and gone.reason == "no sequence of available actions makes healthy hold"
    assert {"action": "pin", "fact": "allowed", "condition": "== true", "root": True} in gone.gaps
    assert [u["fact"] for u in gone.unreachable] == ["healthy"]
