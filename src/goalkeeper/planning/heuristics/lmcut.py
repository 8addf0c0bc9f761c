"""LM-cut (Helmert & Domshlak 2009): the strongest admissible heuristic we ship.

Each round computes h_max with a precondition choice function (pcf), marks the goal
zone (props reaching the goal through zero-cost pcf links), cuts the operators that
cross into it from the init side, and charges the cheapest cut cost. After a cut only
the cut operators got cheaper, so h_max is repaired incrementally by propagating
decreases instead of being recomputed: that is where most of the speed comes from.
Disjunctive conditions are auxiliary zero-cost operators (see ``relaxed``), which
keeps the cuts valid.

:func:`lmcut_cuts` also returns the cuts (disjunctive action landmarks with their
cost share) and accepts a starting cost function. A* uses both (Pommerening &
Helmert 2013): the cuts of a state that do not contain the operator leading to a
successor are landmarks of the successor too, so the successor starts from them and
only searches for further cuts on the residual costs, a few rounds instead of h.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heappop, heappush

from ..task import Operator, Task
from . import INF, Heuristic, register_heuristic
from .relaxed import Relaxed, build_relaxed

__all__ = ["Cut", "lmcut", "lmcut_cuts", "lmcut_value"]

# (cost share, relaxed operator indices, original operator indices)
Cut = tuple[float, tuple[int, ...], frozenset[int]]


def lmcut_value(rx: Relaxed, props: Sequence[int]) -> float:
    """LM-cut value of the state whose true propositions are ``props``."""
    return lmcut_cuts(rx, props, rx.cost[:], None)


def lmcut_cuts(
    rx: Relaxed, props: Sequence[int], cost: list[float], cuts: list[Cut] | None
) -> float:
    """LM-cut value under cost function ``cost`` (left holding the residual costs).

    Appends each cut to ``cuts`` when given. Returns ``INF`` for relaxed dead ends.
    """
    nprops = rx.nprops
    pre = rx.pre
    add = rx.add
    pre_of = rx.pre_of
    achievers = rx.achievers
    orig = rx.orig
    goal = rx.goal
    hv = [INF] * nprops
    val = [INF] * rx.nops  # h_max of each operator's preconditions
    pcf = [-1] * rx.nops
    remaining = rx.npre[:]
    heap: list[tuple[float, int]] = []
    if rx.integer_costs:  # bucket queue: no heap operations in the first exploration
        buckets: list[list[int]] = [[]]
        b0 = buckets[0]
        for p in props:
            if hv[p] != 0.0:
                hv[p] = 0.0
                b0.append(p)
        c = 0
        while c < len(buckets):
            for p in buckets[c]:  # zero-cost operators append to the bucket being read
                if hv[p] != c:
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
                                k = int(nc)
                                while len(buckets) <= k:
                                    buckets.append([])
                                buckets[k].append(q)
            if c == 0 and hv[goal] == 0.0:
                return 0.0  # the starting costs already cover every landmark
            c += 1
    else:
        for p in props:
            if hv[p] != 0.0:
                hv[p] = 0.0
                heap.append((0.0, p))
        while heap:  # full h_max exploration with pcf (repairs need every pcf)
            c0, p = heappop(heap)
            if c0 > hv[p]:
                continue
            for o in pre_of[p]:
                r = remaining[o] - 1
                remaining[o] = r
                if r == 0:
                    val[o] = c0
                    pcf[o] = p
                    nc = c0 + cost[o]
                    for q in add[o]:
                        if nc < hv[q]:
                            hv[q] = nc
                            heappush(heap, (nc, q))
    hg = hv[goal]
    if hg == INF:
        return INF
    total = 0.0
    while hg > 0.0:
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
        m = min([cost[o] for o in cut])
        total += m
        if cuts is not None:
            cuts.append((m, tuple(cut), frozenset([orig[o] for o in cut if orig[o] >= 0])))
        for o in cut:
            cost[o] -= m
            nc = val[o] + cost[o]
            for q in add[o]:
                if nc < hv[q]:
                    hv[q] = nc
                    heappush(heap, (nc, q))
        while heap:  # repair h_max: values only decrease
            cr, p = heappop(heap)
            if cr > hv[p]:
                continue
            for o in pre_of[p]:
                if pcf[o] != p:
                    continue
                best = p
                bv = cr
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
        hg = hv[goal]
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
