"""Shared search plumbing: operator pruning, successor generation, limits, plans.

Before any search the operator set is cut down to what can matter: excluded
operators go, then operators whose conditions are unreachable from ``init`` in the
delete relaxation, then operators that set no value any remaining condition or the
goal asks for (backward relevance). Both prunings keep every optimal plan.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..result import SearchLimits
from ..task import Operator, Task

__all__ = [
    "NO_LIMITS",
    "Clock",
    "OpTuple",
    "Pruned",
    "extract_plan",
    "group_successors",
    "prune_operators",
]

NO_LIMITS = SearchLimits()

# (forbid, keep, add, cost, index): what inner loops need, unpacked without attribute lookups.
OpTuple = tuple[int, int, int, float, int]


@dataclass(frozen=True, slots=True)
class Pruned:
    ops: tuple[Operator, ...]
    reachable: bool  # goal reachable in the delete relaxation from init


def _relaxed_ok(o: Operator, reached: int, need: int) -> bool:
    if need & ~reached:
        return False
    return all(m & reached for m in o.pre_sets)


def _need_mask(o: Operator) -> int:
    m = 0
    for b in o.pre_bits:
        m |= 1 << b
    return m


def prune_operators(task: Task, init: int, exclude: Iterable[int] = ()) -> Pruned:
    """Drop excluded, relaxed-unreachable and goal-irrelevant operators (in index order)."""
    ex = frozenset(exclude)
    pending = [(o, _need_mask(o)) for o in task.operators if o.index not in ex]
    reached = init
    live: list[Operator] = []
    changed = True
    while changed:
        changed = False
        rest = []
        for o, need in pending:
            if _relaxed_ok(o, reached, need):
                live.append(o)
                if o.add & ~reached:
                    reached |= o.add
                    changed = True
            else:
                rest.append((o, need))
        pending = rest
    goal_ok = all(m & reached for m in task.goal_sets) and all(
        reached >> b & 1 for b in task.goal_bits
    )
    if not goal_ok:
        return Pruned((), False)
    useful = 0
    for b in task.goal_bits:
        useful |= 1 << b
    for m in task.goal_sets:
        useful |= m
    relevant: set[int] = set()
    changed = True
    while changed:
        changed = False
        for o in live:
            if o.index not in relevant and o.add & useful:
                relevant.add(o.index)
                useful |= _need_mask(o)
                for m in o.pre_sets:
                    useful |= m
                changed = True
    return Pruned(tuple(o for o in live if o.index in relevant), True)


def group_successors(ops: Sequence[Operator]) -> list[tuple[int, list[OpTuple]]]:
    """Index operators by one precondition bit (the most shared one) so that a state
    only tests the operators whose key bit it has: ``s & key`` skips whole groups."""
    freq: dict[int, int] = {}
    for o in ops:
        for b in o.pre_bits:
            freq[b] = freq.get(b, 0) + 1
    groups: dict[int, list[OpTuple]] = {}
    order: list[int] = []
    for o in ops:
        if o.pre_bits:
            key = 1 << max(o.pre_bits, key=lambda b: (freq[b], -b))
        elif o.pre_sets:
            key = o.pre_sets[0]
        else:
            key = -1  # no condition: every state has it
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((o.forbid, o.keep, o.add, o.cost, o.index))
    return [(k, groups[k]) for k in order]


class Clock:
    """Cheap limit checks: expansions every call, wall time every 256 expansions."""

    __slots__ = ("deadline", "max_exp")

    def __init__(self, limits: SearchLimits) -> None:
        self.max_exp = limits.max_expansions
        self.deadline = (
            None if limits.max_seconds is None else time.perf_counter() + limits.max_seconds
        )

    def out(self, expanded: int) -> bool:
        if self.max_exp is not None and expanded >= self.max_exp:
            return True
        return (
            self.deadline is not None
            and expanded & 255 == 0
            and time.perf_counter() > self.deadline
        )


def extract_plan(parent: dict[int, tuple[int, int] | None], state: int) -> list[int]:
    """Operator indices from the root to ``state`` following parent links."""
    plan: list[int] = []
    link = parent[state]
    while link is not None:
        prev, op = link
        plan.append(op)
        link = parent[prev]
    plan.reverse()
    return plan


def plan_cost(task: Task, plan: Sequence[int]) -> float:
    return float(sum(task.operators[i].cost for i in plan))
