"""LM-cut (Helmert & Domshlak 2009): the strongest admissible heuristic we ship.

Each round computes h_max with a precondition choice function (pcf), marks the goal
zone (props reaching the goal through zero-cost pcf links), cuts the operators that
cross into it from the init side, and charges the cheapest cut cost. Disjunctive
conditions are auxiliary zero-cost operators (see ``relaxed``), which keeps the cuts
valid.

Each round explores h_max afresh rather than repairing the previous round's values:
repairs keep stale precondition choices among ties, and on freecell, scanalyzer or
transport that halves h(init) (6 against 15 on freecell task03). A* evaluates few
rounds per state anyway, since states start from their parent's cuts. Ties are
explored last in, first out (the precondition choice is the precondition reached
last). The cut holds the operators that cross from the init side into the goal
zone; the other effects of a crossing operator stay out of the init side (a path
through them uses that operator anyway), which keeps later cuts small.

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


def _explore(
    rx: Relaxed, props: Sequence[int], cost: list[float]
) -> tuple[list[float], list[float], list[int]]:
    """h_max of every proposition and operator, and each operator's precondition choice
    (the precondition reached last), exploring equal costs last in, first out."""
    pre_of = rx.pre_of
    add = rx.add
    hv = [INF] * rx.nprops
    val = [INF] * rx.nops  # h_max of each operator's preconditions
    pcf = [-1] * rx.nops
    remaining = rx.npre[:]
    if rx.integer_costs:  # bucket queue: no heap operations
        buckets: list[list[int]] = [[]]
        b0 = buckets[0]
        for p in props:
            if hv[p] != 0.0:
                hv[p] = 0.0
                b0.append(p)
        c = 0
        while c < len(buckets):
            bucket = buckets[c]
            while bucket:  # zero-cost operators push onto the bucket being read
                p = bucket.pop()
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
            c += 1
        return hv, val, pcf
    heap: list[tuple[float, int, int]] = []
    seq = 0
    for p in props:
        if hv[p] != 0.0:
            hv[p] = 0.0
            seq -= 1
            heap.append((0.0, seq, p))
    heap.sort()
    while heap:
        c0, _, p = heappop(heap)
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
                        seq -= 1
                        heappush(heap, (nc, seq, q))
    return hv, val, pcf


def lmcut_cuts(
    rx: Relaxed, props: Sequence[int], cost: list[float], cuts: list[Cut] | None
) -> float:
    """LM-cut value under cost function ``cost`` (left holding the residual costs).

    Appends each cut to ``cuts`` when given. Returns ``INF`` for relaxed dead ends.
    """
    nprops = rx.nprops
    add = rx.add
    pre_of = rx.pre_of
    achievers = rx.achievers
    orig = rx.orig
    goal = rx.goal
    total = 0.0
    while True:
        hv, _val, pcf = _explore(rx, props, cost)
        hg = hv[goal]
        if hg == INF:
            return INF
        if hg == 0.0:
            return total
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
                for q in add[o]:
                    if zone[q]:
                        cut.append(o)
                        break
                else:
                    for q in add[o]:
                        if not reached[q]:
                            reached[q] = 1
                            stack.append(q)
        m = min([cost[o] for o in cut])
        total += m
        if cuts is not None:
            cuts.append((m, tuple(cut), frozenset([orig[o] for o in cut if orig[o] >= 0])))
        for o in cut:
            cost[o] -= m


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
