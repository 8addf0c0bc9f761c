"""planning.explain and plan()'s account of why there is no plan."""

from __future__ import annotations

from typing import Any

import pytest

from goalkeeper.model import spec_from_data
from goalkeeper.planning import Blocker, Setter, compile_spec, plan
from goalkeeper.planning.explain import relaxed_gaps, relaxed_reachable

MODES = ["astar", "regression", "greedy"]

SHOP: dict[str, Any] = {
    "goalkeeper": 1,
    "goal": {"deployed": True, "tests_green": True},
    "facts": {
        "built": {},
        "deployed": {},
        "tests_green": {},
        "license": {"type": "str"},
        "disk_gb": {"type": "int"},
    },
    "actions": {
        "build": {"pre": {"disk_gb": {">=": 5}}, "effects": {"built": True}},
        "deploy": {"pre": {"built": True, "license": "paid"}, "effects": {"deployed": True}},
        "test": {"effects": {"tests_green": True}},
    },
}
STATE = {"built": False, "deployed": False, "tests_green": False, "license": "trial", "disk_gb": 2}


def encode(spec: Any, state: dict[str, Any]) -> tuple[Any, int]:
    task = compile_spec(spec, state)
    init = task.encode([task.domains[i].index(state[f]) for i, f in enumerate(task.var_names)])
    return task, init


@pytest.mark.parametrize("search", MODES)
def test_unreachable_names_goal_fact_setters_and_blockers(search: str) -> None:
    spec = spec_from_data(SHOP)
    r = plan(spec, STATE, search=search)
    assert r.status == "unreachable"
    assert r.reason == "no sequence of available actions makes deployed hold"
    (gap,) = r.unreachable  # tests_green is reachable, so it is not named
    assert (gap.fact, gap.condition, gap.current) == ("deployed", "== true", False)
    (deploy,) = gap.setters
    assert (deploy.action, deploy.excluded) == ("deploy", False)
    assert [(b.fact, b.condition) for b in deploy.blocked] == [("built", "== true"), ("license", "== 'paid'")]


def test_blockers_are_explained_recursively() -> None:
    r = plan(spec_from_data(SHOP), STATE)
    (deploy,) = r.unreachable[0].setters
    built, license_ = deploy.blocked
    # built could be set by build, which needs disk space no action provides
    assert built.setters == (
        Setter("build", (Blocker("disk_gb", ">= 5", ()),), excluded=False),
    )
    # nothing sets the license
    assert license_.setters == ()


def test_blockers_quote_the_whole_condition() -> None:
    data = {**SHOP, "actions": {**SHOP["actions"]}}
    data["actions"]["deploy"] = {"pre": {"disk_gb": {">=": 10, "<": 100}}, "effects": {"deployed": True}}
    r = plan(spec_from_data(data), STATE)
    (gap,) = r.unreachable
    (setter,) = gap.setters
    assert setter.blocked == (Blocker("disk_gb", ">= 10 and < 100", ()),)


def test_goal_fact_without_any_setter() -> None:
    data = {**SHOP, "goal": {"deployed": True, "license": "paid"}}
    r = plan(spec_from_data(data), STATE)
    by_fact = {u.fact: u for u in r.unreachable}
    assert set(by_fact) == {"deployed", "license"}
    assert by_fact["license"].setters == ()
    assert by_fact["license"].current == "trial"
    assert "deployed, license" in r.reason


def test_reachable_once_blocker_is_lifted() -> None:
    spec = spec_from_data(SHOP)
    r = plan(spec, {**STATE, "license": "paid", "disk_gb": 8})
    assert r.found and set(r.plan) == {"build", "deploy", "test"}


@pytest.mark.parametrize("search", MODES)
def test_goals_reachable_alone_but_not_together(search: str) -> None:
    spec = spec_from_data(
        {
            "goalkeeper": 1,
            "goal": {"a": True, "b": True},
            "facts": {"a": {}, "b": {}},
            "actions": {
                "set_a": {"effects": {"a": True, "b": False}},
                "set_b": {"effects": {"b": True, "a": False}},
            },
        }
    )
    r = plan(spec, {"a": False, "b": False}, search=search)
    assert r.status == "unreachable"
    assert "no plan reaches them together" in r.reason
    by_fact = {u.fact: u for u in r.unreachable}
    assert set(by_fact) == {"a", "b"}
    assert [s.action for s in by_fact["a"].setters] == ["set_a"]
    assert [s.action for s in by_fact["b"].setters] == ["set_b"]


def test_together_case_lists_only_unmet_goal_facts() -> None:
    spec = spec_from_data(
        {
            "goalkeeper": 1,
            "goal": {"a": True, "b": True},
            "facts": {"a": {}, "b": {}},
            "actions": {"set_b": {"effects": {"b": True, "a": False}}},
        }
    )
    r = plan(spec, {"a": True, "b": False})
    assert r.status == "unreachable"
    assert [u.fact for u in r.unreachable] == ["b"]


def test_relaxed_reachable_and_gaps_on_the_task() -> None:
    spec = spec_from_data(SHOP)
    task, init = encode(spec, STATE)
    reached = relaxed_reachable(task, init)
    tg = task.var_names.index("tests_green")
    dep = task.var_names.index("deployed")
    assert reached >> (task.offsets[tg] + task.domains[tg].index(True)) & 1
    assert not reached >> (task.offsets[dep] + task.domains[dep].index(True)) & 1
    _, gaps = relaxed_gaps(task, init)
    assert [g.var for g in gaps] == [dep]
    assert gaps[0].allowed & ~task.var_masks[dep] == 0


def test_relaxed_reachability_honours_exclude() -> None:
    spec = spec_from_data(SHOP)
    state = {**STATE, "license": "paid", "disk_gb": 8}
    task, init = encode(spec, state)
    assert relaxed_gaps(task, init)[1] == []
    build = next(o.index for o in task.operators if o.name == "build")
    _, gaps = relaxed_gaps(task, init, exclude={build})
    assert [task.var_names[g.var] for g in gaps] == ["deployed"]
    r = plan(spec, state, exclude=["build"])
    (gap,) = r.unreachable
    assert gap.setters == (
        Setter("deploy", (Blocker("built", "== true", (Setter("build", (), excluded=True),)),), excluded=False),
    )


def test_excluded_setter_is_flagged() -> None:
    spec = spec_from_data(SHOP)
    r = plan(spec, {**STATE, "license": "paid", "disk_gb": 8}, exclude=["deploy"])
    (gap,) = r.unreachable
    assert gap.setters == (Setter("deploy", (), excluded=True),)


def test_circular_blockers_terminate() -> None:
    spec = spec_from_data(
        {
            "goalkeeper": 1,
            "goal": {"a": True},
            "facts": {"a": {}, "b": {}},
            "actions": {
                "set_a": {"pre": {"b": True}, "effects": {"a": True}},
                "set_b": {"pre": {"a": True}, "effects": {"b": True}},
            },
        }
    )
    r = plan(spec, {"a": False, "b": False})
    assert r.status == "unreachable"
    (gap,) = r.unreachable
    (set_a,) = gap.setters
    (b,) = set_a.blocked
    assert b.fact == "b"
    (set_b,) = b.setters
    assert set_b.action == "set_b"
    # set_b needs a again: the cycle is cut, not expanded forever
    (a_again,) = set_b.blocked
    assert a_again.fact == "a" and a_again.setters == ()
