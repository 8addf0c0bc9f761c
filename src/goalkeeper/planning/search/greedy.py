"""Satisficing greedy best-first search with h_FF and preferred operators.

Lazy (deferred) evaluation, as in Fast Downward's ``lazy_greedy``: a successor is
queued under its parent's heuristic value and evaluated only when popped, so one
heuristic evaluation is paid per expanded state instead of per generated one (10-30x
fewer in gripper- or miconic-like tasks with wide branching). Two open lists: one
holding every successor, one holding only successors reached through a preferred
operator (an operator of the parent's relaxed plan). Lists are used alternately;
whenever h improves, the preferred list gets a head start of 1000 picks, which is
what lets greedy search run down long plateaus in logistics- or blocks-like tasks.

With h_FF or h_add the compiled core (``core``) runs the same search, step for step
(same successor order, same open-list keys, same relaxed plans), up to 16x faster (a
4.8x median where a search takes over 10 ms; ``benchmarks/unseen2/CORE.md``). This
module's loop is the fallback and the reference the tests hold it to.
"""

from __future__ import annotations

from heapq import heappop, heappush

from ..heuristics import INF, get_heuristic
from ..result import SearchLimits, SearchOutcome
from ..task import Operator, Task
from . import register_search
from ._common import NO_LIMITS, Clock, extract_plan, group_successors, plan_cost, prune_operators

__all__ = ["greedy", "greedy_python"]

BOOST = 1000


@register_search("greedy")
def greedy(
    task: Task,
    init: int,
    *,
    exclude: frozenset[int] = frozenset(),
    limits: SearchLimits = NO_LIMITS,
    heuristic: str | None = None,
    core: str | None = None,
) -> SearchOutcome:
    """Greedy best-first search; ``core`` picks "c" or "python" (as for ``astar``)."""
    from .core import get_core

    name = heuristic or "ff"
    if init & task.goal_forbid == 0:
        return SearchOutcome([], 0.0, 0, 0, True, name)
    pruned = prune_operators(task, init, exclude)
    if not pruned.reachable:
        return SearchOutcome(None, INF, 0, 0, True, name)
    get_heuristic(name)  # an unknown name fails here, whichever core runs
    return get_core(core, pruned.ops).greedy(task, init, pruned.ops, limits, name)


def greedy_python(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits, name: str
) -> SearchOutcome:
    """The search in pure Python, over the pruned operators ``ops`` (init is no goal)."""
    h = get_heuristic(name)(task, ops)
    if h.preferred is not None:
        evaluate = h.preferred
    else:
        fn = h.fn

        def evaluate(state: int) -> tuple[float, list[int]]:
            return fn(state), []

    groups = group_successors(ops)
    gforbid = task.goal_forbid
    parent: dict[int, tuple[int, int] | None] = {init: None}
    # entries: (parent's h, seq, state, parent state, operator index)
    open_all: list[tuple[float, int, int, int, int]] = [(0.0, 0, init, init, -1)]
    open_pref: list[tuple[float, int, int, int, int]] = []
    prio = [0, 0]
    best = INF
    closed: set[int] = set()
    clock = Clock(limits)
    expanded = generated = 0
    seq = 0
    while open_all or open_pref:
        if open_pref and (not open_all or prio[1] <= prio[0]):
            which = 1
            _h, _q, s, ps, pi = heappop(open_pref)
        else:
            which = 0
            _h, _q, s, ps, pi = heappop(open_all)
        if s in closed:
            continue
        prio[which] += 1
        closed.add(s)
        if pi >= 0:
            parent[s] = (ps, pi)
        if clock.out(expanded):
            return SearchOutcome(None, INF, expanded, generated, False, name)
        hs, pref_list = evaluate(s)
        if hs == INF:
            continue
        expanded += 1
        if hs < best:
            best = hs
            prio[1] -= BOOST
        pref = frozenset(pref_list)
        for key, group in groups:
            if s & key:
                for forbid, keep, add, _c, idx in group:
                    if s & forbid:
                        continue
                    t = (s & keep) | add
                    if t in closed:
                        continue
                    generated += 1
                    if not t & gforbid:
                        parent[t] = (s, idx)
                        plan = extract_plan(parent, t)
                        return SearchOutcome(
                            plan, plan_cost(task, plan), expanded, generated, True, name
                        )
                    seq += 1
                    heappush(open_all, (hs, seq, t, s, idx))
                    if idx in pref:
                        heappush(open_pref, (hs, seq, t, s, idx))
    return SearchOutcome(None, INF, expanded, generated, True, name)
