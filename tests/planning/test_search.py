"""Searches: plans replay, optimal modes match brute force, exclude/limits honoured."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.errors import PlanningError
from goalkeeper.planning.result import SearchLimits
from goalkeeper.planning.search import SEARCHES, get_search
from goalkeeper.planning.task import GroundAction, Task

from .randomtasks import brute_force, random_task

get_search("astar")  # load the built-ins
MODES = sorted(SEARCHES)
OPTIMAL = [
    ("astar", None),
    ("astar", "blind"),
    ("astar", "hmax"),
    ("astar", "lmcut"),
    ("astar", "race"),
    ("regression", None),
    ("regression", "blind"),
]
if "auto" in SEARCHES:
    OPTIMAL.append(("auto", None))

seeds = st.integers(min_value=0, max_value=10**9)
cfg = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_plan(task: Task, init: int, plan: list[int], exclude: frozenset[int] = frozenset()):
    assert not set(plan) & exclude
    assert task.is_goal(task.replay(init, plan))


@cfg
@given(seeds, st.integers(2, 6), st.integers(1, 14))
def test_optimal_modes_match_brute_force(seed: int, nvars: int, nactions: int) -> None:
    task, init = random_task(seed, nvars, nactions)
    best = brute_force(task, init)
    for mode, h in OPTIMAL:
        out = get_search(mode)(task, init, heuristic=h)
        assert out.exhausted, (mode, h)
        if best is None:
            assert out.plan is None, (mode, h)
        else:
            assert out.plan is not None, (mode, h)
            _check_plan(task, init, out.plan)
            cost = sum(task.operators[i].cost for i in out.plan)
            assert math.isclose(cost, best, abs_tol=1e-9), (mode, h, cost, best)
            assert math.isclose(out.cost, best, abs_tol=1e-9), (mode, h)


@cfg
@given(seeds, st.integers(2, 6), st.integers(1, 14))
def test_every_mode_replays_and_proves_unsolvable(seed: int, nvars: int, nactions: int) -> None:
    task, init = random_task(seed, nvars, nactions)
    best = brute_force(task, init)
    for mode in MODES:
        out = get_search(mode)(task, init)
        assert out.exhausted
        assert (out.plan is None) == (best is None), mode
        if out.plan is not None:
            _check_plan(task, init, out.plan)


@cfg
@given(seeds, st.data())
def test_exclude_is_honoured(seed: int, data: st.DataObject) -> None:
    task, init = random_task(seed, 4, 9)
    n = len(task.operators)
    exclude = frozenset(data.draw(st.sets(st.integers(0, n - 1), max_size=n)))
    best = brute_force(task, init, exclude)
    for mode in MODES:
        out = get_search(mode)(task, init, exclude=exclude)
        assert (out.plan is None) == (best is None), mode
        if out.plan is not None:
            _check_plan(task, init, out.plan, exclude)
    for mode, h in OPTIMAL:
        out = get_search(mode)(task, init, exclude=exclude, heuristic=h)
        if best is not None:
            assert out.plan is not None
            assert math.isclose(out.cost, best, abs_tol=1e-9), (mode, h)


def _chain(n: int) -> tuple[Task, int]:
    """A counter 0..n with a step action: plan length n, n expansions."""
    acts = [GroundAction(f"inc{i}", ((0, frozenset({i})),), ((0, i + 1),)) for i in range(n)]
    task = Task.compile(["c"], [tuple(range(n + 1))], acts, [(0, frozenset({n}))])
    return task, task.encode([0])


@pytest.mark.parametrize("mode", ["astar", "regression", "greedy"])
def test_limits_stop_search(mode: str) -> None:
    task, init = _chain(30)
    out = get_search(mode)(task, init, limits=SearchLimits(max_expansions=5))
    assert out.plan is None and not out.exhausted
    assert out.expanded <= 5
    out = get_search(mode)(task, init, limits=SearchLimits(max_seconds=0.0))
    assert out.plan is None and not out.exhausted
    full = get_search(mode)(task, init, limits=SearchLimits(max_expansions=1000))
    assert full.plan is not None and len(full.plan) == 30


def test_already_at_goal_and_determinism() -> None:
    task, init = random_task(7, 4, 8)
    for mode in MODES:
        first = get_search(mode)(task, init)
        assert first.plan == get_search(mode)(task, init).plan
    task2, _ = _chain(3)
    out = get_search("astar")(task2, task2.encode([3]))
    assert out.plan == [] and out.cost == 0.0


def test_unknown_names() -> None:
    with pytest.raises(PlanningError):
        get_search("nope")
    task, init = _chain(3)
    with pytest.raises(PlanningError):
        get_search("astar")(task, init, heuristic="ff")  # inadmissible
    with pytest.raises(PlanningError):
        get_search("astar")(task, init, heuristic="nope")


PDDL = Path("/work/shared/benchmarks/pddl")
IPC = [("gripper", "task01", 11), ("blocks", "task04", 12), ("miconic", "task05", 17),
       ("logistics", "task01", 20)]


@pytest.mark.parametrize(("domain", "name", "optimal"), IPC)
def test_ipc_tasks(domain: str, name: str, optimal: int) -> None:
    pytest.importorskip("pyperplan")
    if not PDDL.exists():
        pytest.skip("benchmark PDDL files not available")
    from goalkeeper.planning.pddl import load_pddl

    task, init = load_pddl(PDDL / domain / "domain.pddl", PDDL / domain / f"{name}.pddl")
    for mode, h in [("astar", None), ("astar", "lmcut"), ("astar", "blind")]:
        out = get_search(mode)(task, init, heuristic=h)
        assert out.plan is not None and out.cost == optimal, (mode, h)
        _check_plan(task, init, out.plan)
    out = get_search("greedy")(task, init)
    assert out.plan is not None and out.cost >= optimal
    _check_plan(task, init, out.plan)


def test_blind_hopeless_spares_closing_state_spaces() -> None:
    from goalkeeper.planning.search.race import blind_hopeless

    gripper = [1, 25, 156, 144, 276, 330, 1386, 2640, 7260, 6160, 4180, 4455, 16335]
    # 1 us per state, 10 ms spent: blind search may use 80,000 more states
    assert not any(
        blind_hopeless(gripper[:k], 35.0, 1e-6, 0.01) for k in range(1, len(gripper) + 1)
    )
    growing = [1, 12, 65, 217, 529, 1082, 2041, 3654, 6232]
    assert blind_hopeless(growing, 33.0, 1e-6, 0.01)
    assert not blind_hopeless(growing, 10.0, 1e-6, 0.01)  # the goal is near: BFS may win
    assert not blind_hopeless(growing, 33.0, 1e-6, 1e6)  # the race has spent far more


def test_regression_warns_on_large_tasks() -> None:
    from goalkeeper.planning.search import regression as reg

    task, init = _chain(reg.WARN_OPERATORS + 1)
    with pytest.warns(RuntimeWarning, match="small GOAP specs"):
        out = get_search("regression")(task, init)
    assert out.plan is not None and len(out.plan) == reg.WARN_OPERATORS + 1
