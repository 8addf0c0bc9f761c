"""h_add and h_FF: sum-based relaxation estimates for satisficing search (inadmissible).

h_add sums precondition costs; h_FF extracts a relaxed plan from h_add's best
supporters and counts its cost, which overcounts less. The relaxed plan's operators
applicable in the state are "preferred": greedy search tries them first.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heappop, heappush

from ..task import Operator, Task
from . import INF, Heuristic, register_heuristic
from .relaxed import Relaxed, build_relaxed

__all__ = ["hadd", "hadd_values", "hff"]


def hadd_values(rx: Relaxed, props: Sequence[int]) -> tuple[list[float], list[int]]:
    """h_add value and best supporter (-1 if none) of every proposition up to the goal."""
    hv = [INF] * rx.nprops
    sup = [-1] * rx.nprops
    remaining = rx.npre[:]
    acc = [0.0] * rx.nops
    pre_of = rx.pre_of
    add = rx.add
    cost = rx.cost
    goal = rx.goal
    heap: list[tuple[float, int]] = []
    for p in props:
        if hv[p] != 0.0:
            hv[p] = 0.0
            heap.append((0.0, p))
    # a heap, so that propositions leave it in (cost, index) order, which the compiled
    # core reproduces (``props`` puts ``true``, a high index, first)
    heap.sort()
    while heap:
        c, p = heappop(heap)
        if c > hv[p]:
            continue
        if p == goal:
            break
        for o in pre_of[p]:
            r = remaining[o] - 1
            remaining[o] = r
            s = acc[o] + c
            acc[o] = s
            if r == 0:
                nc = s + cost[o]
                for q in add[o]:
                    if nc < hv[q]:
                        hv[q] = nc
                        sup[q] = o
                        heappush(heap, (nc, q))
    return hv, sup


@register_heuristic("hadd")
def hadd(task: Task, ops: Sequence[Operator]) -> Heuristic:
    rx = build_relaxed(task, ops)
    goal = rx.goal
    gforbid = task.goal_forbid

    def h(state: int) -> float:
        if state & gforbid == 0:
            return 0.0
        return hadd_values(rx, rx.init_props(state))[0][goal]

    return Heuristic("hadd", h, admissible=False)


@register_heuristic("ff")
def hff(task: Task, ops: Sequence[Operator]) -> Heuristic:
    rx = build_relaxed(task, ops)
    goal = rx.goal
    gforbid = task.goal_forbid
    pre = rx.pre
    cost = rx.cost
    orig = rx.orig

    forbid = {o.index: o.forbid for o in ops}

    def with_preferred(state: int) -> tuple[float, list[int]]:
        if state & gforbid == 0:
            return 0.0, []
        props = rx.init_props(state)
        hv, sup = hadd_values(rx, props)
        if hv[goal] == INF:
            return INF, []
        seen = bytearray(rx.nprops)
        for p in props:
            seen[p] = 1
        used = bytearray(rx.nops)
        total = 0.0
        preferred: list[int] = []
        stack = [goal]
        while stack:
            p = stack.pop()
            if seen[p]:
                continue
            seen[p] = 1
            o = sup[p]
            if used[o]:
                continue
            used[o] = 1
            total += cost[o]
            stack.extend(pre[o])
            k = orig[o]
            if k >= 0 and state & forbid[k] == 0:
                preferred.append(k)
        return total, sorted(preferred)

    def h(state: int) -> float:
        return with_preferred(state)[0]

    return Heuristic("ff", h, admissible=False, preferred=with_preferred)
