"""A* with LM-cut, evaluated lazily and incrementally from the parent's landmarks.

The cuts of an expanded state ``s`` are landmarks of every successor reached by an
operator outside them, so a successor is queued with ``h(s)`` minus the cost shares
of the cuts its operator belongs to (at least ``h(s) - cost``, the pathmax bound):
successors through operators in no cut keep ``f(s) + cost`` and are only evaluated
if the search ever gets to that f. When a successor is popped, LM-cut starts from
the inherited cuts (their costs taken off the operator costs) and only looks for
further cuts on what is left (Pommerening & Helmert 2013).

The compiled core (``_core.c``) mirrors this loop step by step, so both return the
same plans; change one, change the other.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from heapq import heappop, heappush

from ..heuristics import INF
from ..heuristics.lmcut import Cut, lmcut_cuts
from ..heuristics.relaxed import Relaxed, build_relaxed
from ..result import SearchLimits, SearchOutcome
from ..task import Operator, Task
from . import stubborn
from ._common import Clock, extract_plan, group_successors
from .stubborn import CHECK_AFTER, Stubborn, worth_it

__all__ = ["lmcut_steps", "lmcut_value_in", "state_props"]

Steps = Generator[None, None, SearchOutcome]


def state_props(rx: Relaxed, order: Sequence[int] | None) -> Callable[[int], list[int]]:
    """A state's propositions, ``true`` first, then in ``order`` (a ranking of the
    proposition bits; None: ascending), as the exploration takes them."""
    if order is None:
        return rx.init_props
    rank = [0] * (max(order, default=-1) + 1)
    for i, b in enumerate(order):
        rank[b] = i
    bp = rx.bit_prop
    mask = rx.prop_mask
    true = rx.true

    def props(state: int) -> list[int]:
        bits = []
        x = state & mask
        while x:
            low = x & -x
            bits.append(low.bit_length() - 1)
            x ^= low
        bits.sort(key=rank.__getitem__)
        return [true] + [bp[b] for b in bits]

    return props


def lmcut_value_in(rx: Relaxed, state: int, order: Sequence[int] | None) -> float:
    """LM-cut value of one state with the propositions taken in ``order``."""
    return lmcut_cuts(rx, state_props(rx, order)(state), rx.cost[:], None)


def lmcut_steps(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
    fbound: list[float] | None = None, order: Sequence[int] | None = None,
    rx: Relaxed | None = None,
) -> Steps:
    """LM-cut A* as a generator that yields every 4 expansions (for racing).

    ``fbound``, when given, holds the f value of the last state popped (a lower bound
    on the optimal plan cost, which the race reads). ``order`` is the tie-breaking
    variant (see ``tiebreak``).
    """
    if rx is None:
        rx = build_relaxed(task, ops)
    init_props = state_props(rx, order)
    base = rx.cost
    groups = group_successors(ops)
    gforbid = task.goal_forbid
    cuts: dict[int, list[Cut]] = {}

    def evaluate(t: int, via: tuple[int, int] | None) -> float:
        if not t & gforbid:
            cuts[t] = []
            return 0.0
        cost = base[:]
        own: list[Cut] = []
        if via is not None:
            s, idx = via
            for cut in cuts[s]:
                if idx not in cut[2]:
                    own.append(cut)
                    m = cut[0]
                    for o in cut[1]:
                        cost[o] -= m
        hv = lmcut_cuts(rx, init_props(t), cost, own)
        if hv == INF:
            return INF
        cuts[t] = own
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
    memory = clock.memory.check
    sss: Stubborn | None = None
    start = stubborn.START
    expanded = generated = napp = nkept = 0
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
        memory()  # an expansion can store thousands of cuts: look often (it is rate-limited)
        if not expanded & 3:
            yield
        own = cuts[s]
        hsum = 0.0
        drop: dict[int, float] = {}
        for m, _rx, orig in own:
            hsum += m
            for k in orig:
                drop[k] = drop.get(k, 0.0) + m
        if expanded == start:  # small searches end before pruning would pay
            sss = Stubborn(task, ops)
            napp = nkept = 0
        stub = -1 if sss is None else sss.compute(s)
        for key, group in groups:
            if s & key:
                for forbid, keep, add, c, idx in group:
                    if s & forbid:
                        continue
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
        if expanded == CHECK_AFTER and sss is not None and not worth_it(napp, nkept):
            sss = None
    return SearchOutcome(None, INF, expanded, generated, True, "lmcut")
