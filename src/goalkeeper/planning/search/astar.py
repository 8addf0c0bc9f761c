"""Optimal forward search: A* with an admissible heuristic, or breadth-first search.

With uniform operator costs and the blind heuristic, A* degenerates to breadth-first
search with the goal test at generation, which needs no priority queue at all and is
the fastest optimal search on small state spaces. Otherwise A* runs over a binary
heap keyed by (f, h, newest first); expensive heuristics are evaluated only for
states that are popped, with the parent's value minus the step cost as the
provisional key (a lower bound on f along optimal paths, so optimality holds).

LM-cut has its own loop (:func:`lmcut_steps`): successors inherit the parent's cuts
that their operator is not part of, both as a provisional bound and as the starting
point of their own LM-cut computation (one round instead of h rounds, typically).
The default for non-trivial tasks races breadth-first search against it
(:func:`race`) and drops the breadth-first side once its layer growth shows it
cannot reach the plan length the A* side has proven.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Generator
from heapq import heappop, heappush

from ..heuristics import INF, Heuristic, get_heuristic
from ..heuristics.lmcut import Cut, lmcut_cuts
from ..heuristics.relaxed import build_relaxed
from ..result import SearchLimits, SearchOutcome
from ..task import Operator, Task
from . import register_search
from ._common import (
    NO_LIMITS,
    Clock,
    OpTuple,
    extract_plan,
    group_successors,
    plan_cost,
    prune_operators,
)
from .choose import choose_heuristic

__all__ = ["astar", "astar_with", "bfs", "race"]

Steps = Generator[None, None, SearchOutcome]


@register_search("astar")
def astar(
    task: Task,
    init: int,
    *,
    exclude: frozenset[int] = frozenset(),
    limits: SearchLimits = NO_LIMITS,
    heuristic: str | None = None,
) -> SearchOutcome:
    pruned = prune_operators(task, init, exclude)
    if init & task.goal_forbid == 0:
        return SearchOutcome([], 0.0, 0, 0, True, heuristic or "blind")
    if not pruned.reachable:
        return SearchOutcome(None, INF, 0, 0, True, heuristic or "relaxed-unreachable")
    ops = pruned.ops
    name = heuristic or choose_heuristic(task, init, ops)
    uniform = len({o.cost for o in ops}) == 1 and ops[0].cost > 0
    if name == "race":
        return race(task, init, ops, limits, uniform)
    h = get_heuristic(name)(task, ops)
    if not h.admissible:
        from ...errors import PlanningError

        raise PlanningError(f"heuristic {name!r} is not admissible; astar needs one")
    if name == "blind" and uniform:
        return bfs(task, init, ops, limits)
    if name == "lmcut":
        return drain(lmcut_steps(task, init, ops, limits))
    return astar_with(task, init, ops, h, limits)


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
    expanded = 0
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
                                    plan, plan_cost(task, plan), expanded, len(parent) - 1,
                                    True, "blind",
                                )
                            push(t)
    return SearchOutcome(None, INF, expanded, len(parent) - 1, True, "blind")


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
    expanded = generated = 0
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
        for key, group in groups:
            if s & key:
                for forbid, keep, add, c, idx in group:
                    if s & forbid:
                        continue
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
    return SearchOutcome(None, INF, expanded, generated, True, h.name)


def lmcut_steps(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
    incremental: bool = True, fbound: list[float] | None = None,
) -> Steps:
    """A* with LM-cut, evaluated lazily and incrementally from the parent's landmarks.

    The cuts of an expanded state ``s`` are landmarks of every successor reached by an
    operator outside them, so a successor is queued with ``h(s)`` minus the cost shares
    of the cuts its operator belongs to (at least ``h(s) - cost``, the pathmax bound):
    successors through operators in no cut keep ``f(s) + cost`` and are only evaluated
    if the search ever gets to that f. When a successor is popped, LM-cut starts from
    the inherited cuts and looks for further cuts on the residual cost function.
    """
    rx = build_relaxed(task, ops)
    init_props = rx.init_props
    base = rx.cost
    groups = group_successors(ops)
    gforbid = task.goal_forbid
    cuts: dict[int, list[Cut]] = {}
    residual: dict[int, list[float]] = {}  # cost function left over by a state's cuts

    def evaluate(t: int, via: tuple[int, int] | None) -> float:
        if not t & gforbid:
            cuts[t] = []
            return 0.0
        if via is not None and incremental:
            s, idx = via
            cost = residual[s][:]
            own: list[Cut] = []
            for cut in cuts[s]:
                if idx in cut[2]:
                    m = cut[0]
                    for o in cut[1]:
                        cost[o] += m
                else:
                    own.append(cut)
        else:
            cost = base[:]
            own = []
        hv = lmcut_cuts(rx, init_props(t), cost, own)
        if hv == INF:
            return INF
        cuts[t] = own
        residual[t] = cost
        return sum([c[0] for c in own])

    h0 = evaluate(init, None)
    if h0 == INF:
        return SearchOutcome(None, INF, 0, 0, True, "lmcut")
    gval: dict[int, float] = {init: 0.0}
    hval: dict[int, float] = {init: h0}
    parent: dict[int, tuple[int, int] | None] = {init: None}
    seq = 0
    # entries: (f, h, -seq, g, state, evaluated)
    heap: list[tuple[float, float, int, float, int, bool]] = [(h0, h0, 0, 0.0, init, True)]
    clock = Clock(limits)
    expanded = generated = 0
    while heap:
        f, hs, q, g, s, ev = heappop(heap)
        if g > gval[s]:
            continue
        if fbound is not None:
            fbound[0] = f
        if not ev:
            hv = hval.get(s)
            if hv is None:
                hv = evaluate(s, parent[s])
                if hv < hs:
                    hv = hs
                hval[s] = hv
            if hv == INF:
                continue
            if g + hv > f:
                heappush(heap, (g + hv, hv, q, g, s, True))
                continue
            hs = hv
        if not s & gforbid:
            plan = extract_plan(parent, s)
            return SearchOutcome(plan, g, expanded, generated, True, "lmcut")
        if clock.out(expanded):
            return SearchOutcome(None, INF, expanded, generated, False, "lmcut")
        expanded += 1
        if not expanded & 3:
            yield
        own = cuts.get(s)
        if own is None:  # reached again after its cuts were computed for another path
            hval.pop(s, None)
            hv = evaluate(s, parent[s])
            own = cuts[s]
        hsum = 0.0
        drop: dict[int, float] = {}
        for m, _rx, orig in own:
            hsum += m
            for k in orig:
                drop[k] = drop.get(k, 0.0) + m
        for key, group in groups:
            if s & key:
                for forbid, keep, add, c, idx in group:
                    if s & forbid:
                        continue
                    t = (s & keep) | add
                    ng = g + c
                    old = gval.get(t)
                    if old is not None and old <= ng:
                        continue
                    gval[t] = ng
                    parent[t] = (s, idx)
                    generated += 1
                    seq -= 1
                    lb = hsum - drop.get(idx, 0.0)
                    if hs - c > lb:
                        lb = hs - c
                    if lb < 0.0:
                        lb = 0.0
                    ht = hval.get(t)
                    if ht is None:
                        heappush(heap, (ng + lb, lb, seq, ng, t, False))
                        continue
                    if ht == INF:
                        continue
                    if lb > ht:
                        ht = hval[t] = lb
                    heappush(heap, (ng + ht, ht, seq, ng, t, True))
    return SearchOutcome(None, INF, expanded, generated, True, "lmcut")


WINDOW = 4
GROWTH = 20.0
MIN_BUDGET = 50000.0


def race(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits, uniform: bool
) -> SearchOutcome:
    """Run blind search and LM-cut A* side by side, always advancing the one that has
    used less time, and return whichever finishes first (both are optimal).

    Neither heuristic wins everywhere: blind search expands 10-1000x more states but
    each costs about 1/300 of an LM-cut evaluation. Racing costs at most twice the
    better of the two, without having to predict which one that is.
    """
    blind = get_heuristic("blind")(task, ops)
    layers: list[int] = []
    fbound = [0.0]
    first = (
        bfs_steps(task, init, ops, limits, layers) if uniform
        else astar_steps(task, init, ops, blind, limits)
    )
    second = lmcut_steps(task, init, ops, limits, fbound=fbound)
    step = ops[0].cost
    gens = [first, second]
    used = [0.0, 0.0]
    clock = time.perf_counter
    seen = 0
    alive = [True, True]
    while True:
        i = 0 if (used[0] <= used[1] and alive[0]) or not alive[1] else 1
        t0 = clock()
        try:
            next(gens[i])
        except StopIteration as stop:
            out: SearchOutcome = stop.value
            if out.exhausted or not alive[1 - i]:
                out.heuristic = f"{out.heuristic} (race)"
                return out
            alive[i] = False  # hit a limit: let the other one use what is left
        finally:
            used[i] += clock() - t0
        if i == 0 and len(layers) > seen and alive[1]:
            seen = len(layers)
            if blind_hopeless(layers, fbound[0] / step):
                alive[0] = False
                gens[0].close()


def blind_hopeless(layers: list[int], depth: float, window: int = WINDOW) -> bool:
    """Whether breadth-first search is losing the race: its layers grew by at least 20%
    each over the last ``window`` layers (no sign of the state space closing in, as
    gripper-like tasks show early on) and that growth, continued up to ``depth`` (a
    lower bound on the plan length from the A* racing it), needs over ``GROWTH`` times
    the states seen so far (and at least ``MIN_BUDGET``)."""
    if len(layers) <= window:
        return False
    budget = max(GROWTH * sum(layers), MIN_BUDGET)
    recent = layers[-window - 1:]
    if any(b < 1.2 * a for a, b in zip(recent, recent[1:], strict=False)):
        return False
    r = (recent[-1] / recent[0]) ** (1.0 / window)
    total = 0.0
    size = float(layers[-1])
    for _ in range(int(depth) - len(layers) + 1):
        size *= r
        total += size
        if total > budget:
            return True
    return False
