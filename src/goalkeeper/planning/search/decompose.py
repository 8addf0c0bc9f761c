"""Independent parts of a task: solved one by one, their plans concatenated.

Where the operators split into groups that share no variable one of them writes
(ten independent chains of steps, one per subsystem), every interleaving of the
groups' plans reaches the same goal at the same cost, and an optimal search over the
whole task explores the product of the parts' state spaces: 501^10 states for ten
500-step chains, which once grew a search to 12 GB. Solving each part for its own goal
conditions and concatenating the plans is exact: a part's operators read and write
only variables no other part writes, so its plan stays applicable whatever ran before
it, and an optimal plan of the whole restricted to one part is a plan of that part, so
the sum of the parts' optimal costs is optimal.

Parts are the connected components of the variables, linking every variable an
operator writes with the others it writes and with the non-static ones it reads
(variables no operator writes are constants and link nothing). The split is computed
once per task and set of excluded operators.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..result import SearchLimits
from ..task import Task

__all__ = ["parts"]

def parts(task: Task, exclude: frozenset[int]) -> list[Task]:
    """The task split into independent parts, each with its own goal conditions (one
    element, ``task`` itself, when it does not split). Kept in ``task.memo``."""
    key = ("parts", exclude)
    got = task.memo.get(key)
    if got is None:
        if len(task.memo) >= 64:  # many exclude sets (a runtime blocking actions)
            task.memo.clear()
        got = task.memo[key] = _split(task, exclude)
    return got  # type: ignore[return-value]


def _split(task: Task, exclude: frozenset[int]) -> list[Task]:
    if len(task.goal_vars) < 2:
        return [task]
    root = list(range(len(task.var_masks)))

    def find(v: int) -> int:
        while root[v] != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    written: set[int] = set()
    for o in task.operators:
        if o.index not in exclude:
            written.update(o.eff_vars)
    for o in task.operators:
        if o.index in exclude or not o.eff_vars:
            continue
        r = find(o.eff_vars[0])
        for v in o.eff_vars[1:]:
            root[find(v)] = r
        for v in o.pre_vars:
            if v in written:
                root[find(v)] = r
    groups: dict[int, list[int]] = {}
    for v in task.goal_vars:
        groups.setdefault(find(v), []).append(v)
    if len(groups) < 2:
        return [task]
    masks = task.var_masks
    out = []
    for gvars in groups.values():
        allowed = 0
        for v in gvars:
            allowed |= masks[v]
        forbid = task.goal_forbid & allowed
        out.append(
            replace(
                task,
                goal_forbid=forbid,
                goal_bits=tuple(b for b in task.goal_bits if task.bit_var[b] in gvars),
                goal_sets=tuple(m for m in task.goal_sets if m & allowed),
                goal_vars=tuple(gvars),
                memo={},
            )
        )
    return out


def remaining(limits: SearchLimits, t0: float, expanded: int) -> SearchLimits:
    """What is left of ``limits`` for the next part after ``expanded`` expansions
    since ``t0``."""
    secs = limits.max_seconds
    exps = limits.max_expansions
    return replace(
        limits,
        max_seconds=None if secs is None else max(0.0, secs - (time.perf_counter() - t0)),
        max_expansions=None if exps is None else max(0, exps - expanded),
    )
