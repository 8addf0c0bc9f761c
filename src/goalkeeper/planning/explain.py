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
    setters: tuple[tuple[int, tuple[int, ...]], ...]  # (operator index, blocked pre vars)


def _allowed(task: Task, forbid: int, var: int) -> int:
    return task.var_masks[var] & ~forbid


def relaxed_gaps(task: Task, init: int, exclude: Collection[int] = ()) -> tuple[int, list[RelaxedGap]]:
    """Goal variables no relaxed plan reaches, with the operators that could set them."""
    reached = relaxed_reachable(task, init, exclude)
    gaps = []
    for var in task.goal_vars:
        allowed = _allowed(task, task.goal_forbid, var)
        if allowed & reached:
            continue
        setters = []
        for o in task.operators:
            if not o.add & allowed:
                continue
            blocked = tuple(
                pv for pv in o.pre_vars if not (_allowed(task, o.forbid, pv) & reached)
            )
            setters.append((o.index, blocked))
        gaps.append(RelaxedGap(var, allowed, tuple(setters)))
    return reached, gaps
