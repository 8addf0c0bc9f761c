"""Optimal backward search (regression from the goal), what GOAP users expect.

Meant for small GOAP specs (tens of actions), where it is as fast as forward A*. It
has no mutex reasoning, so on larger tasks it regresses through goal sets no state can
reach (e.g. a block both held and on the table) and can take minutes where ``astar``
takes milliseconds; above ``WARN_OPERATORS`` relevant operators it says so with a
``RuntimeWarning``. Prefer ``astar`` there.

A regression state is an "allowed" mask G: for each variable the values it may still
hold (all of them when unconstrained). ``init`` satisfies G iff ``init & ~G == 0``.
An operator is relevant when it writes a variable G constrains and consistent when
every value it writes is allowed; its regression is
``(G | varmask(eff vars)) & allowed(pre)``, pruned if some variable is left with no
value. The heuristic is h_max computed once, forward from ``init``: the cost of G is
the largest, over constrained variables, of the cheapest allowed value. It is
admissible and consistent, and costs one dict lookup per constrained variable.
"""

from __future__ import annotations

import warnings
from heapq import heappop, heappush

from ..heuristics import INF
from ..heuristics.hmax import hmax_values
from ..heuristics.relaxed import build_relaxed
from ..result import SearchLimits, SearchOutcome
from ..task import Task
from . import register_search
from ._common import NO_LIMITS, Clock, extract_plan, prune_operators

__all__ = ["WARN_OPERATORS", "regression"]

WARN_OPERATORS = 200


@register_search("regression")
def regression(
    task: Task,
    init: int,
    *,
    exclude: frozenset[int] = frozenset(),
    limits: SearchLimits = NO_LIMITS,
    heuristic: str | None = None,
) -> SearchOutcome:
    name = heuristic or "hmax"
    if name not in ("hmax", "blind"):
        from ...errors import PlanningError

        raise PlanningError(f"regression supports heuristics 'hmax' and 'blind', not {name!r}")
    full = task.full
    root = full & ~task.goal_forbid
    if init & ~root == 0:
        return SearchOutcome([], 0.0, 0, 0, True, name)
    pruned = prune_operators(task, init, exclude)
    if not pruned.reachable:
        return SearchOutcome(None, INF, 0, 0, True, name)
    ops = pruned.ops
    if len(ops) > WARN_OPERATORS:
        warnings.warn(
            f"regression search is meant for small GOAP specs; this task has {len(ops)} "
            "relevant operators, where it can take minutes: use search='astar' (`--search astar`)",
            RuntimeWarning, stacklevel=2,
        )
    var_masks = task.var_masks
    rops = []
    for o in ops:
        effmask = 0
        for v in o.eff_vars:
            effmask |= var_masks[v]
        pre_masks = tuple(var_masks[v] for v in o.pre_vars)
        rops.append((o.add, effmask, o.forbid, pre_masks, o.cost, o.index))

    # h_max of every bit, forward from init; h(G) = max over constrained vars of min allowed
    bit_cost: dict[int, float] = {}
    if name == "hmax":
        rx = build_relaxed(task, ops)
        hv = hmax_values(rx, rx.init_props(init))
        bit_cost = {b: hv[p] for b, p in rx.bit_prop.items()}
    cond_vars = sorted({v for o in ops for v in o.pre_vars} | set(task.goal_vars))
    vmasks = [var_masks[v] for v in cond_vars] if bit_cost else []
    memo: dict[int, float] = {}

    def hfun(g: int) -> float:
        best = 0.0
        for vm in vmasks:
            m = g & vm
            if m != vm:
                c = memo.get(m)
                if c is None:
                    c = INF
                    x = m
                    while x:
                        low = x & -x
                        bc = bit_cost.get(low.bit_length() - 1, INF)
                        if bc < c:
                            c = bc
                        x ^= low
                    memo[m] = c
                if c > best:
                    best = c
        return best

    h0 = hfun(root)
    if h0 == INF:
        return SearchOutcome(None, INF, 0, 0, True, name)
    gval: dict[int, float] = {root: 0.0}
    parent: dict[int, tuple[int, int] | None] = {root: None}
    heap: list[tuple[float, float, int, float, int]] = [(h0, h0, 0, 0.0, root)]
    clock = Clock(limits)
    expanded = generated = 0
    seq = 0
    while heap:
        _f, _h, _s, g, s = heappop(heap)
        if g > gval[s]:
            continue
        if init & ~s == 0:
            plan = extract_plan(parent, s)
            plan.reverse()
            return SearchOutcome(plan, g, expanded, generated, True, name)
        if clock.out(expanded):
            return SearchOutcome(None, INF, expanded, generated, False, name)
        expanded += 1
        banned = full ^ s
        for add, effmask, forbid, pre_masks, c, idx in rops:
            if add & banned or not effmask & banned:
                continue
            t = (s | effmask) & ~forbid
            for vm in pre_masks:
                if not t & vm:
                    break
            else:
                ng = g + c
                old = gval.get(t)
                if old is not None and old <= ng:
                    continue
                ht = hfun(t)
                if ht == INF:
                    continue
                gval[t] = ng
                parent[t] = (s, idx)
                generated += 1
                seq -= 1
                heappush(heap, (ng + ht, ht, seq, ng, t))
    return SearchOutcome(None, INF, expanded, generated, True, name)
