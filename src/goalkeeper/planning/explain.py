"""Why there is no plan: relaxed reachability over the compiled task.

Ignoring that effects overwrite values, a bit that cannot be reached can never
hold in any real plan either. That turns "no plan" into names: which goal
condition is out of reach, which actions could set it, and which of their
preconditions can never hold.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .task import Task

__all__ = ["RelaxedGap", "relaxed_gaps", "relaxed_reachable"]


def relaxed_reachable(task: Task, init: int, exclude: Collection[int] = ()) -> int:
    """All bits reachable when no effect ever removes a value."""
    reached = init
    pending = [o for o in task.operators if o.index not in exclude]
    changed = True
    while changed:
        changed = False
        rest = []
        for o in pending:
            if all(reached >> b & 1 for b in o.pre_bits) and all(reached & m for m in o.pre_sets):
                if o.add & ~reached:
                    reached |= o.add
                    changed = True
            else:
                rest.append(o)
        pending = rest
    return reached


@dataclass(frozen=True, slots=True)
class RelaxedGap:
    var: int
    allowed: int  # goal-allowed bits of var


def relaxed_gaps(task: Task, init: int, exclude: Collection[int] = ()) -> tuple[int, list[RelaxedGap]]:
    """Reachable bits, and the goal variables no relaxed plan reaches."""
    reached = relaxed_reachable(task, init, exclude)
    gaps = []
    for var in task.goal_vars:
        allowed = task.var_masks[var] & ~task.goal_forbid
        if not allowed & reached:
            gaps.append(RelaxedGap(var, allowed))
    return reached, gaps
