"""Shared search plumbing: operator pruning, successor generation, limits, plans.

Before any search the operator set is cut down to what can matter: excluded
operators go, then operators whose conditions are unreachable from ``init`` in the
delete relaxation, then operators that set no value any remaining condition or the
goal asks for (backward relevance). Both prunings keep every optimal plan.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..result import SearchLimits
from ..task import Operator, Task

__all__ = [
    "NO_LIMITS",
    "Clock",
    "MemoryBudget",
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


def prune_operators(task: Task, init: int, exclude: Iterable[int] = ()) -> Pruned:
    """Drop excluded, relaxed-unreachable and goal-irrelevant operators.

    The kept operators come in the order the reachability passes met them (which
    decides how searches break ties, so it is kept stable). GOAP-sized specs pay
    this on every plan() call, hence the inlined tests."""
    ex = exclude if isinstance(exclude, frozenset) else frozenset(exclude)
    pending = [o for o in task.operators if o.index not in ex] if ex else list(task.operators)
    large = len(pending) > LARGE
    reached = init
    live: list[Operator] = []
    changed = True
    passes = 0
    while changed:
        if large and passes == MAX_PASSES:
            reached = _reach_rest(reached, pending, live)
            break
        passes += 1
        changed = False
        rest = []
        for o in pending:
            if o.need & ~reached or (o.pre_sets and not all(m & reached for m in o.pre_sets)):
                rest.append(o)
                continue
            live.append(o)
            if o.add & ~reached:
                reached |= o.add
                changed = True
        pending = rest
    for m in task.goal_sets:
        if not m & reached:
            return Pruned((), False)
    useful = 0
    for b in task.goal_bits:
        useful |= 1 << b
    if useful & ~reached:
        return Pruned((), False)
    for m in task.goal_sets:
        useful |= m
    if large:
        relevant = _relevant(live, useful)
        return Pruned(tuple(o for o in live if o.index in relevant), True)
    relevant = set()
    changed = True
    while changed:
        changed = False
        for o in live:
            if o.add & useful and o.index not in relevant:
                relevant.add(o.index)
                useful |= o.pre_mask
                changed = True
    if len(relevant) == len(live):
        return Pruned(tuple(live), True)
    return Pruned(tuple(o for o in live if o.index in relevant), True)


# Above LARGE operators, pruning finishes with worklists: passes over all operators
# take one pass per step of a chain whose operators come in an unlucky order (30 s on
# a spec of ten 500-step chains), while on GOAP-sized specs they beat any indexing.
LARGE = 128
MAX_PASSES = 8


def _bits_of(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def _reach_rest(reached: int, pending: list[Operator], live: list[Operator]) -> int:
    """Finish the reachability fixpoint from ``reached`` in linear time: each pending
    operator waits on its unmet conditions, and each newly reached bit wakes only its
    watchers. Appends the operators that become reachable to ``live``."""
    missing = [0] * len(pending)
    watch: dict[int, list[tuple[int, int]]] = {}  # bit -> (operator, condition)
    met: set[tuple[int, int]] = set()
    ready = []
    for i, o in enumerate(pending):
        n = 0
        for k, m in enumerate([1 << b for b in o.pre_bits] + list(o.pre_sets)):
            if not m & reached:
                n += 1
                for b in _bits_of(m):
                    watch.setdefault(b, []).append((i, k))
        missing[i] = n
        if not n:
            ready.append(i)
    while ready:
        i = ready.pop()
        live.append(pending[i])
        new = pending[i].add & ~reached
        reached |= new
        for b in _bits_of(new):
            for j, k in watch.pop(b, ()):
                if (j, k) not in met:
                    met.add((j, k))
                    missing[j] -= 1
                    if not missing[j]:
                        ready.append(j)
    return reached


def _relevant(live: list[Operator], useful: int) -> set[int]:
    """Backward relevance from the ``useful`` bits by worklist (the same fixpoint as
    the passes in ``prune_operators``)."""
    adders: dict[int, list[Operator]] = {}
    for o in live:
        for b in o.eff_bits:
            adders.setdefault(b, []).append(o)
    relevant: set[int] = set()
    todo = _bits_of(useful)
    seen = set(todo)
    while todo:
        for o in adders.get(todo.pop(), ()):
            if o.index in relevant:
                continue
            relevant.add(o.index)
            for b in _bits_of(o.pre_mask):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
    return relevant


_groups: dict[tuple[int, ...], tuple[Sequence[Operator], list[tuple[int, list[OpTuple]]]]] = {}


def group_successors(ops: Sequence[Operator]) -> list[tuple[int, list[OpTuple]]]:
    """Index operators by one precondition bit (the most shared one) so that a state
    only tests the operators whose key bit it has: ``s & key`` skips whole groups.

    Memoised on the operators' identities (a replanning runtime prunes a spec to the
    same operators tick after tick, and on GOAP-sized specs this is a sixth of a
    plan() call); the entry holds the operators, so the ids stay theirs. The lists
    returned are shared: read them, never change them."""
    key = tuple(map(id, ops))
    hit = _groups.get(key)
    if hit is not None:
        return hit[1]
    groups = _group(ops)
    if len(_groups) >= 1024:
        _groups.clear()
    _groups[key] = (ops, groups)
    return groups


def _group(ops: Sequence[Operator]) -> list[tuple[int, list[OpTuple]]]:
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


def _memory_now() -> tuple[int, int] | None:
    """(resident, virtual) bytes of this process, or None where it cannot be read
    cheaply (off Linux; there only a ``MemoryError`` stops a runaway search)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            fields = f.read().split()
    except OSError:
        return None
    return int(fields[1]) * _PAGE, int(fields[0]) * _PAGE


try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
    _PAGE = 4096


def _address_limit() -> int | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


class MemoryBudget:
    """How much a search may grow the process: ``limits.max_memory_mb`` of resident
    memory over what it used when the search began, and under an address-space limit
    (``ulimit -v``) 90% of that limit, so the search stops with a clear
    ``PlanningError`` before Python fails with a bare ``MemoryError``.

    Reading ``/proc/self/statm`` costs microseconds, so ``check`` looks at most every
    ``EVERY`` seconds; callers call it as often as they like.
    """

    EVERY = 0.005

    __slots__ = ("base", "budget", "limit_mb", "next", "vlimit")

    def __init__(self, limits: SearchLimits) -> None:
        # Nothing is read yet: GOAP-sized searches end before the first check.
        self.limit_mb = limits.max_memory_mb
        self.base: int | None = None
        self.budget = 0
        self.vlimit: int | None = None
        self.next = time.perf_counter() + self.EVERY

    def check(self) -> None:
        if self.limit_mb is None:
            return
        t = time.perf_counter()
        if t < self.next:
            return
        self.next = t + self.EVERY
        now = _memory_now()
        if now is None:
            self.limit_mb = None  # nothing to measure here: stop trying
            return
        rss, vm = now
        if self.base is None:  # the first look: what the search started from
            self.base = rss
            self.budget = rss + int(self.limit_mb * 2**20)
            vl = _address_limit()
            # a process already past 90% of its limit gets the MemoryError net only
            self.vlimit = None if vl is None or vm > vl * 0.9 else int(vl * 0.9)
        if rss > self.budget:
            raise over_budget(f"grew the process by {(rss - self.base) / 2**20:,.0f} MB, over "
                              f"its memory budget of {self.limit_mb:,.0f} MB")
        if self.vlimit is not None and vm > self.vlimit:
            raise over_budget(f"reached {vm / 2**20:,.0f} MB of address space, 90% of this "
                              f"process's limit ({self.vlimit / 0.9 / 2**20:,.0f} MB, ulimit -v)")


def over_budget(what: str) -> Exception:
    """The error for a search that ran out of memory (its budget, or a MemoryError)."""
    from ...errors import PlanningError
    from ..result import MEMORY_ENV

    return PlanningError(
        f"planning stopped: the search {what}. The task has too many states to search "
        f"optimally; raise the budget (SearchLimits(max_memory_mb=...), or the "
        f"{MEMORY_ENV} environment variable, in MB or 'none'), bound the search "
        "(max_seconds / --max-seconds), or use search='greedy' (`--search greedy`)"
    )


class Clock:
    """Cheap limit checks: expansions every call; wall time and memory every 256
    expansions."""

    __slots__ = ("deadline", "max_exp", "memory")

    def __init__(self, limits: SearchLimits) -> None:
        self.max_exp = limits.max_expansions
        self.deadline = (
            None if limits.max_seconds is None else time.perf_counter() + limits.max_seconds
        )
        self.memory = MemoryBudget(limits)

    def out(self, expanded: int) -> bool:
        if self.max_exp is not None and expanded >= self.max_exp:
            return True
        if expanded & 255:
            return False
        self.memory.check()
        return self.deadline is not None and time.perf_counter() > self.deadline


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
