"""Heuristics: admissible ones never overestimate; dominance and dead ends are right."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.errors import PlanningError
from goalkeeper.planning.heuristics import INF, get_heuristic, heuristic_names
from goalkeeper.planning.task import GroundAction, Task

from .randomtasks import brute_force, random_task

cfg = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reachable(task: Task, init: int, cap: int = 200) -> list[int]:
    seen = {init}
    todo = [init]
    while todo and len(seen) < cap:
        s = todo.pop()
        for o in task.applicable(s):
            t = task.apply(s, o)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return sorted(seen)


@cfg
@given(st.integers(0, 10**9), st.integers(2, 6), st.integers(1, 12))
def test_admissible_bounds_and_dominance(seed: int, nvars: int, nactions: int) -> None:
    task, init = random_task(seed, nvars, nactions)
    ops = task.operators
    hs = {n: get_heuristic(n)(task, ops) for n in heuristic_names()}
    for s in _reachable(task, init, 40):
        best = brute_force(task, s)
        star = INF if best is None else best
        values = {n: h(s) for n, h in hs.items()}
        for n, h in hs.items():
            if h.admissible:
                assert values[n] <= star + 1e-9, (n, values[n], star)
        # every relaxation agrees on relaxed dead ends, and only true dead ends are flagged
        finite = {n: v < INF for n, v in values.items() if n != "blind"}
        assert len(set(finite.values())) <= 1, values
        if best is not None:
            assert all(finite.values())
        assert values["hmax"] <= values["lmcut"] + 1e-9
        assert values["hmax"] <= values["hadd"] + 1e-9
        if task.is_goal(s):
            assert all(v == 0 for v in values.values())


def test_disjunctive_condition_takes_the_cheapest_value() -> None:
    # x in {1, 2} as goal; x=2 costs 1 step, x=1 costs 3 steps
    acts = [
        GroundAction("to2", ((0, frozenset({0})),), ((0, 2),), 1.0),
        GroundAction("to3", ((0, frozenset({0})),), ((0, 3),), 1.0),
        GroundAction("3to1", ((0, frozenset({3})),), ((0, 1),), 2.0),
    ]
    task = Task.compile(["x"], [(0, 1, 2, 3)], acts, [(0, frozenset({1, 2}))])
    init = task.encode([0])
    for name in ("hmax", "hadd", "ff", "lmcut"):
        assert get_heuristic(name)(task, task.operators)(init) == 1.0, name
    assert brute_force(task, init) == 1.0


def test_ff_preferred_operators_are_applicable() -> None:
    task, init = random_task(3, 5, 12)
    h = get_heuristic("ff")(task, task.operators)
    assert h.preferred is not None
    for s in _reachable(task, init):
        value, pref = h.preferred(s)
        assert math.isinf(value) or value >= 0
        for i in pref:
            assert s & task.operators[i].forbid == 0


def test_unknown_heuristic() -> None:
    with pytest.raises(PlanningError):
        get_heuristic("nope")
