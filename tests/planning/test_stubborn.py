"""Strong stubborn sets: every solvable state keeps an optimal first step; searches
that prune from the first expansion stay optimal."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.planning.search import stubborn
from goalkeeper.planning.search._common import prune_operators
from goalkeeper.planning.search.astar import astar
from goalkeeper.planning.search.stubborn import Stubborn

from .randomtasks import brute_force, random_task

cfg = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reachable(task, init, cap=60):  # type: ignore[no-untyped-def]
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
@given(st.integers(0, 10**9), st.integers(2, 6), st.integers(1, 14))
def test_stubborn_set_keeps_an_optimal_first_step(seed: int, nvars: int, nactions: int) -> None:
    task, init = random_task(seed, nvars, nactions)
    ops = task.operators
    sss = Stubborn(task, ops)
    for s in _reachable(task, init):
        if task.is_goal(s):
            continue
        best = brute_force(task, s)
        if best is None:
            continue
        stub = sss.compute(s)
        steps = []
        for o in task.applicable(s):
            rest = brute_force(task, task.apply(s, o)) if stub >> o.index & 1 else None
            if rest is not None:
                steps.append(o.cost + rest)
        assert steps and math.isclose(min(steps), best, abs_tol=1e-9), (seed, s)


@cfg
@given(st.integers(0, 10**9), st.integers(2, 7), st.integers(1, 18))
def test_pruned_searches_stay_optimal(seed: int, nvars: int, nactions: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(stubborn, "START", 1)
        task, init = random_task(seed, nvars, nactions)
        best = brute_force(task, init)
        for h in ("blind", "lmcut", None):
            out = astar(task, init, heuristic=h, core="python")
            assert (out.plan is None) == (best is None), h
            if out.plan is not None:
                assert task.is_goal(task.replay(init, out.plan))
                assert best is not None and math.isclose(out.cost, best, abs_tol=1e-9), h


def test_pruning_cuts_commuting_orders() -> None:
    """n independent switches: without pruning BFS sees 2^n states, with it about n."""
    from goalkeeper.planning.task import GroundAction, Task

    n = 12
    acts = [GroundAction(f"on{i}", ((i, frozenset({0})),), ((i, 1),)) for i in range(n)]
    task = Task.compile([f"s{i}" for i in range(n)], [(0, 1)] * n, acts,
                        [(i, frozenset({1})) for i in range(n)])
    init = task.encode([0] * n)
    ops = prune_operators(task, init).ops
    sss = Stubborn(task, ops)
    assert bin(sss.compute(init)).count("1") == 1  # one goal's achiever, nothing interferes
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(stubborn, "START", 1)
        out = astar(task, init, heuristic="blind", core="python")
    assert out.cost == n and out.expanded < 2 * n
