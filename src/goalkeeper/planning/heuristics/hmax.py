"""h_max: cost of the most expensive condition in the delete relaxation (admissible).

Generalised Dijkstra over propositions with per-operator counters of unmet
preconditions; stops as soon as the goal proposition is settled.
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import heappop, heappush

from ..task import Operator, Task
from . import INF, Heuristic, register_heuristic
from .relaxed import Relaxed, build_relaxed

__all__ = ["hmax", "hmax_values"]


def hmax_values(rx: Relaxed, props: Sequence[int], stop_at_goal: bool = False) -> list[float]:
    """h_max value of every proposition from the given true propositions."""
    hv = [INF] * rx.nprops
    remaining = rx.npre[:]
    pre_of = rx.pre_of
    add = rx.add
    cost = rx.cost
    goal = rx.goal
    heap: list[tuple[float, int]] = []
    for p in props:
        if hv[p] != 0.0:
            hv[p] = 0.0
            heap.append((0.0, p))
    while heap:
        c, p = heappop(heap)
        if c > hv[p]:
            continue
        if p == goal and stop_at_goal:
            break
        for o in pre_of[p]:
            r = remaining[o] - 1
            remaining[o] = r
            if r == 0:
                nc = c + cost[o]
                for q in add[o]:
                    if nc < hv[q]:
                        hv[q] = nc
                        heappush(heap, (nc, q))
    return hv


@register_heuristic("hmax")
def hmax(task: Task, ops: Sequence[Operator]) -> Heuristic:
    rx = build_relaxed(task, ops)
    goal = rx.goal
    gforbid = task.goal_forbid
    init_props = rx.init_props

    def h(state: int) -> float:
        if state & gforbid == 0:
            return 0.0
        return hmax_values(rx, init_props(state), stop_at_goal=True)[goal]

    return Heuristic("hmax", h, admissible=True)
