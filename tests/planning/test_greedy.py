"""Greedy search in the compiled core is the Python search, step for step: the same
plans, counts and limit stops, the same budget error; and both return valid plans on
the shared IPC domains. The Python loop is what a machine without a compiler runs."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.errors import PlanningError
from goalkeeper.planning.result import SearchLimits, SearchOutcome
from goalkeeper.planning.search import core as cores
from goalkeeper.planning.search.greedy import greedy
from goalkeeper.planning.task import GroundAction, Task

from .randomtasks import brute_force, random_task

needs_c = pytest.mark.skipif(not cores.available(), reason="compiled core not built")
cfg = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PDDL = Path("/work/shared/benchmarks/pddl")
HEURISTICS = ("ff", "hadd")


NONE = SearchLimits()


def _both(task: Task, init: int, h: str, limits: SearchLimits = NONE) -> SearchOutcome:
    a = greedy(task, init, heuristic=h, core="python", limits=limits)
    b = greedy(task, init, heuristic=h, core="c", limits=limits)
    assert (a.plan, a.cost, a.expanded, a.generated, a.exhausted, a.heuristic) == (
        b.plan, b.cost, b.expanded, b.generated, b.exhausted, b.heuristic), h
    return b


@needs_c
@cfg
@given(st.integers(0, 10**9), st.integers(2, 8), st.integers(1, 24))
def test_both_cores_return_the_same_greedy_search(seed: int, nvars: int, nactions: int) -> None:
    task, init = random_task(seed, nvars, nactions)
    best = brute_force(task, init)
    for h in HEURISTICS:
        out = _both(task, init, h)
        assert (out.plan is None) == (best is None)  # greedy search is complete
        if out.plan is not None:
            assert task.is_goal(task.replay(init, out.plan))
            assert out.cost == sum(task.operators[i].cost for i in out.plan)
            assert out.cost >= best - 1e-9  # type: ignore[operator]


@functools.cache
def _ipc(dom: str) -> tuple[Task, int]:
    pytest.importorskip("pyperplan")
    if not PDDL.exists():
        pytest.skip("benchmark PDDL files not available")
    from goalkeeper.planning.pddl import load_pddl

    d = PDDL / dom
    domain = d / "domain.pddl" if (d / "domain.pddl").exists() else d / "domain01.pddl"
    return load_pddl(domain, d / "task01.pddl")


DOMAINS = ["blocks", "freecell", "gripper", "logistics", "miconic", "movie", "openstacks",
           "parcprinter", "pegsol", "psr-small", "scanalyzer", "sokoban", "tpp", "transport",
           "woodworking"]


@needs_c
@pytest.mark.parametrize("dom", DOMAINS)
def test_compiled_greedy_plans_the_ipc_domains(dom: str) -> None:
    task, init = _ipc(dom)
    out = _both(task, init, "ff")
    assert out.plan and task.is_goal(task.replay(init, out.plan))
    assert out.heuristic == "ff" and out.exhausted


@needs_c
def test_the_compiled_greedy_search_is_deterministic() -> None:
    task, init = _ipc("sokoban")
    runs = [greedy(task, init, core="c") for _ in range(3)]
    assert len({(tuple(r.plan or ()), r.expanded, r.generated) for r in runs}) == 1


def _trap(n: int) -> tuple[Task, int]:
    """Unsolvable, but not in the delete relaxation: ``a`` needs every switch on, ``b``
    every switch off, and each one needs the other still unset. Greedy search expands
    all 2^n switch settings (the states with a or b set are relaxed dead ends)."""
    names = [f"t{i}" for i in range(n)] + ["a", "b"]
    acts = []
    for i in range(n):
        acts.append(GroundAction(f"on{i}", ((i, frozenset({0})),), ((i, 1),)))
        acts.append(GroundAction(f"off{i}", ((i, frozenset({1})),), ((i, 0),)))
    free = ((n, frozenset({0})), (n + 1, frozenset({0})))
    acts.append(GroundAction("a", free + tuple((i, frozenset({1})) for i in range(n)),
                             ((n, 1),)))
    acts.append(GroundAction("b", free + tuple((i, frozenset({0})) for i in range(n)),
                             ((n + 1, 1),)))
    task = Task.compile(names, [(0, 1)] * (n + 2), acts,
                        [(n, frozenset({1})), (n + 1, frozenset({1}))])
    return task, task.encode([0] * (n + 2))


@needs_c
@pytest.mark.parametrize("h", HEURISTICS)
def test_limits_stop_both_greedy_searches_alike(h: str) -> None:
    task, init = _trap(10)
    full = _both(task, init, h)
    assert full.plan is None and full.exhausted and full.expanded == 2**10
    for k in (0, 1, 2, 100, 255, 256, 257):
        out = _both(task, init, h, SearchLimits(max_expansions=k))
        assert out.plan is None and not out.exhausted and out.expanded == k
    out = _both(task, init, h, SearchLimits(max_seconds=0.0))
    assert out.plan is None and not out.exhausted and out.expanded == 0


@pytest.mark.parametrize("core", ["c", "python"])
def test_a_greedy_search_over_its_memory_budget_stops_with_the_fix(core: str) -> None:
    if core == "c" and not cores.available():
        pytest.skip("the compiled core is not built")
    from goalkeeper.planning.search._common import _memory_now

    if _memory_now() is None:
        pytest.skip("needs /proc/self/statm (Linux)")
    task, init = _trap(22)  # 4 million states: far more than 8 MB in either core
    with pytest.raises(PlanningError, match="over its memory budget of 8 MB"):
        greedy(task, init, core=core, limits=SearchLimits(max_memory_mb=8))


def test_heuristics_without_a_compiled_version_run_in_python() -> None:
    task, init = random_task(3, 5, 14)
    for h in ("blind", "hmax", "lmcut"):
        a = greedy(task, init, heuristic=h, core="python")
        if cores.available():
            b = greedy(task, init, heuristic=h, core="c")
            assert (a.plan, a.expanded) == (b.plan, b.expanded)
    trap, start = _trap(3)
    with pytest.raises(PlanningError, match="unknown heuristic"):
        greedy(trap, start, heuristic="nope", core="c" if cores.available() else "python")


FALLBACK = """
import json, sys
sys.modules["goalkeeper.planning._core"] = None  # as if the extension was never built
from goalkeeper.planning.pddl import load_pddl
from goalkeeper.planning.search import core
from goalkeeper.planning.search.greedy import greedy
assert not core.available()
out = {}
for dom in sys.argv[2:]:
    task, init = load_pddl(f"{sys.argv[1]}/{dom}/domain.pddl", f"{sys.argv[1]}/{dom}/task01.pddl")
    r = greedy(task, init)  # core: auto, which can only be Python here
    out[dom] = [r.plan, r.expanded]
print(json.dumps(out))
"""


@needs_c
def test_without_the_extension_greedy_plans_match_the_compiled_core() -> None:
    subset = ["gripper", "logistics", "sokoban", "scanalyzer"]
    tasks = {dom: _ipc(dom) for dom in subset}
    proc = subprocess.run([sys.executable, "-c", FALLBACK, str(PDDL), *subset],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    fallback = json.loads(proc.stdout)
    for dom, (task, init) in tasks.items():
        r = greedy(task, init, core="c")
        assert fallback[dom] == [r.plan, r.expanded], dom
