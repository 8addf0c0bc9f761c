"""Optimal forward search: A* with an admissible heuristic, or breadth-first search.

With uniform operator costs and the blind heuristic, A* degenerates to breadth-first
search with the goal test at generation, which needs no priority queue at all and is
the fastest optimal search on small state spaces. Otherwise A* runs over a binary
heap keyed by (f, h, newest first); expensive heuristics are evaluated only for
states that are popped, with the parent's value minus the step cost as the
provisional key (a lower bound on f along optimal paths, so optimality holds).

LM-cut has its own loop (``lmcut_astar``). Every search prunes with strong stubborn
sets (``stubborn``), which keep optimality. The default for non-trivial tasks races
breadth-first search against LM-cut A* (``race``). Breadth-first search, blind A*
and LM-cut A* also exist in a compiled core (``core``) that returns the same plans;
it is used when it was built, unless ``GOALKEEPER_PLANNER_CORE=python``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator
from heapq import heappop, heappush

from ..heuristics import INF, Heuristic, get_heuristic
from ..result import SearchLimits, SearchOutcome
from ..task import Operator, Task
from . import register_search, stubborn
from ._common import (
    NO_LIMITS,
    Clock,
    OpTuple,
    extract_plan,
    group_successors,
    plan_cost,
    prune_operators,
)
from .stubborn import CHECK_AFTER, Stubborn, worth_it

__all__ = ["astar", "astar_steps", "astar_with", "bfs", "bfs_steps", "drain"]

Steps = Generator[None, None, SearchOutcome]


@register_search("astar")
def astar(
    task: Task,
    init: int,
    *,
    exclude: frozenset[int] = frozenset(),
    limits: SearchLimits = NO_LIMITS,
    heuristic: str | None = None,
    core: str | None = None,
) -> SearchOutcome:
    """Optimal A*; ``core`` picks "c" or "python" (default: ``core.default_core()``)."""
    from .core import get_core

    pruned = prune_operators(task, init, exclude)
    if init & task.goal_forbid == 0:
        return SearchOutcome([], 0.0, 0, 0, True, heuristic or "blind")
    if not pruned.reachable:
        return SearchOutcome(None, INF, 0, 0, True, heuristic or "relaxed-unreachable")
    ops = pruned.ops
    impl = get_core(core, ops)
    uniform = len({o.cost for o in ops}) == 1 and ops[0].cost > 0
    name = heuristic
    if name is None:
        name = _choose()(task, init, ops)
    if name == "race":
        from .race import race

        return race(task, init, ops, limits, uniform, impl)
    h = get_heuristic(name)(task, ops)
    if not h.admissible:
        from ...errors import PlanningError

        raise PlanningError(f"heuristic {name!r} is not admissible; astar needs one")
    if name == "blind":
        if uniform:
            return drain(impl.bfs_steps(task, init, ops, limits))
        return drain(impl.blind_steps(task, init, ops, limits))
    if name == "lmcut":
        return drain(impl.lmcut_steps(task, init, ops, limits))
    return astar_with(task, init, ops, h, limits)


def _choose() -> Callable[[Task, int, tuple[Operator, ...]], str]:
    from .choose import choose_heuristic

    return choose_heuristic


def bfs(task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits) -> SearchOutcome:
    """Breadth-first search; optimal when every operator has the same positive cost."""
    return drain(bfs_steps(task, init, ops, limits))


def drain(gen: Steps) -> SearchOutcome:
    """Run a stepwise search to completion."""
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            out: SearchOutcome = stop.value
            return out


def bfs_steps(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
    layers: list[int] | None = None,
) -> Steps:
    """:func:`bfs` as a generator that yields every 256 expansions (for racing).

    ``layers``, when given, receives the size of each completed depth layer.
    """
    groups = group_successors(ops)
    gforbid = task.goal_forbid
    parent: dict[int, tuple[int, int] | None] = {init: None}
    queue = deque([init])
    clock = Clock(limits)
    sss: Stubborn | None = None
    start = stubborn.START
    expanded = napp = nkept = 0
    pop = queue.popleft
    push = queue.append
    left = 1  # states of the current depth layer still to expand
    while queue:
        if clock.out(expanded):
            return SearchOutcome(None, INF, expanded, len(parent) - 1, False, "blind")
        if not left:  # the previous layer is done: the queue holds exactly the next one
            left = len(queue)
            if layers is not None:
                layers.append(left)
        left -= 1
        s = pop()
        expanded += 1
        if not expanded & 255:
            yield
        if expanded == start:  # small searches end before pruning would pay
            sss = Stubborn(task, ops)
            napp = nkept = 0
        if sss is None:  # the hot loop of small searches: no pruning, no counting
            for key, group in groups:
                if s & key:
                    for forbid, keep, add, _c, idx in group:
                        if not s & forbid:
                            t = (s & keep) | add
                            if t not in parent:
                                parent[t] = (s, idx)
                                if not t & gforbid:
                                    plan = extract_plan(parent, t)
                                    return SearchOutcome(
                                        plan, plan_cost(task, plan), expanded,
                                        len(parent) - 1, True, "blind",
                                    )
                                push(t)
            continue
        stub = sss.compute(s)
        for key, group in groups:
            if s & key:
                for forbid, keep, add, _c, idx in group:
                    if s & forbid:
                        continue
                    napp += 1
                    if not stub >> idx & 1:
                        continue
                    nkept += 1
                    t = (s & keep) | add
                    if t not in parent:
                        parent[t] = (s, idx)
                        if not t & gforbid:
                            plan = extract_plan(parent, t)
                            return SearchOutcome(
                                plan, plan_cost(task, plan), expanded, len(parent) - 1,
                                True, "blind",
                            )
                        push(t)
        if expanded == CHECK_AFTER and sss is not None and not worth_it(napp, nkept):
            sss = None
    return SearchOutcome(None, INF, expanded, len(parent) - 1, True, "blind")


def blind_steps(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits
) -> Steps:
    """Blind A* (for non-uniform costs), stepwise."""
    return astar_steps(task, init, ops, get_heuristic("blind")(task, ops), limits)


def astar_with(
    task: Task, init: int, ops: tuple[Operator, ...], h: Heuristic, limits: SearchLimits
) -> SearchOutcome:
    """A* from ``init`` over ``ops`` with heuristic ``h`` (reopens on cheaper paths)."""
    return drain(astar_steps(task, init, ops, h, limits))


def astar_steps(
    task: Task, init: int, ops: tuple[Operator, ...], h: Heuristic, limits: SearchLimits
) -> Steps:
    """:func:`astar_with` as a generator yielding every few expansions (for racing)."""
    every = 3 if h.expensive else 255
    groups: list[tuple[int, list[OpTuple]]] = group_successors(ops)
    gforbid = task.goal_forbid
    fn = h.fn
    lazy = h.expensive
    h0 = fn(init)
    if h0 == INF:
        return SearchOutcome(None, INF, 0, 0, True, h.name)
    gval: dict[int, float] = {init: 0.0}
    hval: dict[int, float] = {init: h0}
    parent: dict[int, tuple[int, int] | None] = {init: None}
    seq = 0
    # entries: (f, h, -seq, g, state); h < 0 marks "not evaluated yet" (lazy mode)
    heap: list[tuple[float, float, int, float, int]] = [(h0, h0, 0, 0.0, init)]
    clock = Clock(limits)
    sss: Stubborn | None = None
    start = stubborn.START
    expanded = generated = napp = nkept = 0
    while heap:
        f, hs, _, g, s = heappop(heap)
        if g > gval[s]:
            continue
        if hs < 0:
            hv = hval.get(s)
            if hv is None:
                hv = hval[s] = fn(s)
            if hv == INF:
                continue
            if g + hv > f:
                heappush(heap, (g + hv, hv, _, g, s))
                continue
            hs = hv
        if not s & gforbid:
            plan = extract_plan(parent, s)
            return SearchOutcome(plan, g, expanded, generated, True, h.name)
        if clock.out(expanded):
            return SearchOutcome(None, INF, expanded, generated, False, h.name)
        expanded += 1
        if not expanded & every:
            yield
        if expanded == start:  # small searches end before pruning would pay
            sss = Stubborn(task, ops)
            napp = nkept = 0
        stub = -1 if sss is None else sss.compute(s)
        counting = sss is not None
        for key, group in groups:
            if s & key:
                for forbid, keep, add, c, idx in group:
                    if s & forbid:
                        continue
                    if counting:
                        napp += 1
                        if not stub >> idx & 1:
                            continue
                        nkept += 1
                    t = (s & keep) | add
                    ng = g + c
                    old = gval.get(t)
                    if old is not None and old <= ng:
                        continue
                    gval[t] = ng
                    parent[t] = (s, idx)
                    generated += 1
                    seq -= 1
                    ht = hval.get(t)
                    if ht is None:
                        if lazy:
                            lb = hs - c
                            if lb < 0.0:
                                lb = 0.0
                            heappush(heap, (ng + lb, -1.0, seq, ng, t))
                            continue
                        ht = hval[t] = fn(t)
                    if ht == INF:
                        continue
                    heappush(heap, (ng + ht, ht, seq, ng, t))
        if expanded == CHECK_AFTER and sss is not None and not worth_it(napp, nkept):
            sss = None
    return SearchOutcome(None, INF, expanded, generated, True, h.name)
