"""search.decompose: independent parts are solved apart, and the sum stays optimal."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.model import spec_from_data
from goalkeeper.planning import SearchLimits, plan
from goalkeeper.planning.planner import _solve
from goalkeeper.planning.search import get_search
from goalkeeper.planning.search.decompose import parts
from goalkeeper.planning.task import GroundAction, Task

from .hostile import chains
from .randomtasks import brute_force


def union_task(seed: int, nparts: int) -> tuple[Task, int]:
    """``nparts`` random tasks side by side (disjoint variables), sometimes reading one
    shared constant (which links nothing) or a variable of another part (which does)."""
    rng = random.Random(seed)
    sizes: list[int] = [2]  # variable 0: a constant some actions read
    init = [1]
    actions: list[GroundAction] = []
    goal: list[tuple[int, frozenset[int]]] = []
    for p in range(nparts):
        base = len(sizes)
        nv = rng.randint(1, 3)
        sizes += [rng.randint(2, 3) for _ in range(nv)]
        init += [rng.randrange(sizes[base + v]) for v in range(nv)]
        for a in range(rng.randint(1, 5)):
            pre = [(base + v, frozenset({rng.randrange(sizes[base + v])}))
                   for v in rng.sample(range(nv), rng.randint(0, nv))]
            if rng.random() < 0.3:
                pre.append((0, frozenset({1})))
            if base > 1 and rng.random() < 0.15:  # couples this part to an earlier one
                w = rng.randrange(1, base)
                pre.append((w, frozenset({rng.randrange(sizes[w])})))
            ev = rng.sample(range(nv), rng.randint(1, nv))
            eff = tuple((base + v, rng.randrange(sizes[base + v])) for v in sorted(ev))
            actions.append(GroundAction(f"p{p}a{a}", tuple(sorted(pre)), eff,
                                        rng.choice([1.0, 2.0, 0.5])))
        for v in rng.sample(range(nv), rng.randint(1, nv)):
            goal.append((base + v, frozenset({rng.randrange(sizes[base + v])})))
    rng.shuffle(actions)
    task = Task.compile([f"v{i}" for i in range(len(sizes))], [tuple(range(s)) for s in sizes],
                        actions, sorted(goal))
    return task, task.encode(init)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 3), st.sampled_from(["astar", "regression"]))
def test_parts_sum_to_the_optimal_cost(seed: int, nparts: int, search: str) -> None:
    task, init = union_task(seed, nparts)
    split = parts(task, frozenset())
    assert len(split) >= 1  # a part can split further: goal facts no action links
    assert sorted(v for p in split for v in p.goal_vars) == sorted(task.goal_vars)
    out = _solve(get_search(search), task, init, frozenset(), SearchLimits(), None)
    best = brute_force(task, init)
    if best is None:
        assert out.plan is None and out.exhausted
        return
    assert out.plan is not None
    assert task.is_goal(task.replay(init, out.plan))
    assert abs(out.cost - best) < 1e-9


def test_a_shared_written_fact_keeps_the_task_whole() -> None:
    split = parts(plan_task(chains(3, 4, coupled=True)), frozenset())
    assert len(split) == 1
    assert len(parts(plan_task(chains(3, 4)), frozenset())) == 3


def plan_task(data: dict[str, object]) -> Task:
    from goalkeeper.model.state import complete_state
    from goalkeeper.planning import compile_spec

    spec = spec_from_data(data)
    return compile_spec(spec, complete_state(spec, {}, allow_unknown=True))


def test_ten_independent_chains_plan_in_linear_work() -> None:
    """The hostile-input spec: 10 x 500 steps. Whole, A* faced 501^10 states; in parts
    each chain is a 500-step line (counting expansions, not seconds)."""
    for counters in (False, True):
        spec = spec_from_data(chains(10, 500, counters=counters))
        r = plan(spec, {})
        assert r.found and r.cost == 5000 and len(r.plan) == 5000
        assert r.expanded <= 5000 + 10
        assert "10 independent parts" in r.heuristic
        for i in range(10):  # each chain's steps in order
            mine = [s for s in r.plan if s.startswith(f"step{i}_")]
            assert mine == [f"step{i}_{j}" for j in range(1, 501)]
