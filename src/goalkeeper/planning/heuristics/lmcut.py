"""LM-cut (Helmert & Domshlak 2009): the strongest admissible heuristic we ship.

Each round computes h_max with a precondition choice function (pcf), marks the goal
zone (props reaching the goal through zero-cost pcf links), cuts the operators that
cross into it from the init side, and charges the cheapest cut cost. After a cut only
the cut operators got cheaper, so h_max is repaired incrementally by propagating
decreases instead of being recomputed: that is where most of the speed comes from.
Disjunctive conditions are auxiliary zero-cost operators (see ``relaxed``), which
keeps the cuts valid.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heappop, heappush

from ..task import Operator, Task
from . import INF, Heuristic, register_heuristic
from .relaxed import Relaxed, build_relaxed

__all__ = ["lmcut", "lmcut_value"]


def lmcut_value(rx: Relaxed, props: Sequence[int]) -> float:
    nprops = rx.nprops
    pre = rx.pre
    add = rx.add
    pre_of = rx.pre_of
    achievers = rx.achievers
    goal = rx.goal
    cost = rx.cost[:]
    hv = [INF] * nprops
    val = [INF] * rx.nops  # h_max of each operator's preconditions
    pcf = [-1] * rx.nops
    remaining = rx.npre[:]
    heap: list[tuple[float, int]] = []
    for p in props:
        if hv[p] != 0.0:
            hv[p] = 0.0
            heap.append((0.0, p))
    while heap:  # full h_max exploration with pcf
        c, p = heappop(heap)
        if c > hv[p]:
            continue
        for o in pre_of[p]:
            r = remaining[o] - 1
            remaining[o] = r
            if r == 0:
                val[o] = c
                pcf[o] = p
                nc = c + cost[o]
                for q in add[o]:
                    if nc < hv[q]:
                        hv[q] = nc
                        heappush(heap, (nc, q))
    if hv[goal] == INF:
        return INF
    total = 0.0
    while hv[goal] > 0.0:
        zone = bytearray(nprops)
        zone[goal] = 1
        stack = [goal]
        while stack:
            p = stack.pop()
            for o in achievers[p]:
                if cost[o] == 0.0:
                    q = pcf[o]
                    if q >= 0 and not zone[q]:
                        zone[q] = 1
                        stack.append(q)
        reached = bytearray(nprops)
        stack = []
        for p in props:
            if not reached[p]:
                reached[p] = 1
                stack.append(p)
        cut: list[int] = []
        while stack:
            p = stack.pop()
            for o in pre_of[p]:
                if pcf[o] != p:
                    continue
                crosses = False
                for q in add[o]:
                    if zone[q]:
                        crosses = True
                    elif not reached[q]:
                        reached[q] = 1
                        stack.append(q)
                if crosses:
                    cut.append(o)
        m = min(cost[o] for o in cut)
        total += m
        for o in cut:
            cost[o] -= m
            nc = val[o] + cost[o]
            for q in add[o]:
                if nc < hv[q]:
                    hv[q] = nc
                    heappush(heap, (nc, q))
        while heap:  # repair h_max: values only decrease
            c, p = heappop(heap)
            if c > hv[p]:
                continue
            for o in pre_of[p]:
                if pcf[o] != p:
                    continue
                best = p
                bv = c
                for q in pre[o]:
                    if hv[q] > bv:
                        bv = hv[q]
                        best = q
                pcf[o] = best
                if bv < val[o]:
                    val[o] = bv
                    nc = bv + cost[o]
                    for q in add[o]:
                        if nc < hv[q]:
                            hv[q] = nc
                            heappush(heap, (nc, q))
    return total


@register_heuristic("lmcut")
def lmcut(task: Task, ops: Sequence[Operator]) -> Heuristic:
    rx = build_relaxed(task, ops)
    gforbid = task.goal_forbid
    init_props = rx.init_props

    def h(state: int) -> float:
        if state & gforbid == 0:
            return 0.0
        return lmcut_value(rx, init_props(state))

    return Heuristic("lmcut", h, admissible=True, expensive=True)
