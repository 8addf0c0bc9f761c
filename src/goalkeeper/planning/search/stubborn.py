"""Strong stubborn sets: partial-order reduction that keeps every optimal plan cost.

In a state ``s`` many applicable operators commute (they touch different variables),
and an optimal search that tries every order of them expands the same states many
times over. A strong stubborn set ``T`` (Alkhazraji et al. 2012; Wehrle & Helmert
2014) is a set of operators such that some optimal plan from ``s``, if any, starts
with an operator of ``T``; expanding only ``T``'s applicable operators is then safe
for A* with any admissible heuristic and for breadth-first search.

``T`` is the least set that contains

- the achievers of one goal condition that ``s`` violates (the first in goal order),
- for each *inapplicable* operator in ``T``, the achievers of one of its violated
  preconditions (the first in precondition order): a necessary enabling set,
- for each *applicable* operator in ``T``, every operator that interferes with it
  (one of them writes a value the other's precondition rules out, or both write one
  variable with different values).

The per-operator choices depend only on the operator and the state, so ``T`` is a
unique fixed point whatever the order it is built in; the compiled core builds it in
another order and gets the same set (hence the same plans). Sets are Python ints with
one bit per operator index (``Operator.index``), so unions are single big-int
operations.

Computing a stubborn set costs more than expanding a state blindly, so searches start
pruning only at expansion ``START`` (GOAP-sized searches end before). Where stubborn
sets prune little (every operator interferes with every other one), they are pure
overhead: at expansion ``CHECK_AFTER``, pruning is switched off for the rest of the
search unless it removed at least ``MIN_RATIO`` of the applicable operators since it
started. Expanding a state without pruning is always safe, so mixing both is too.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..task import Operator, Task

__all__ = ["CHECK_AFTER", "MIN_RATIO", "START", "Stubborn", "worth_it"]

START = 100
CHECK_AFTER = 1000
MIN_RATIO = 0.2


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class Stubborn:
    """Stubborn-set computation for one task and the operators a search may use."""

    __slots__ = (
        "_ach",
        "_ach_cache",
        "_bit_var",
        "_forbid",
        "_goal",
        "_intf",
        "_pre",
        "_pre_forbid",
        "_writers_bit",
        "_writers_var",
        "ops",
    )

    def __init__(self, task: Task, ops: Sequence[Operator]) -> None:
        self.ops = {o.index: o for o in ops}
        nb = task.nbits
        writers_bit = [0] * nb
        pre_forbid = [0] * nb
        writers_var = [0] * len(task.var_masks)
        for o in ops:
            bit = 1 << o.index
            for b in o.eff_bits:
                writers_bit[b] |= bit
            for v in o.eff_vars:
                writers_var[v] |= bit
            for b in _bits(o.forbid):
                pre_forbid[b] |= bit
        self._writers_bit = writers_bit
        self._writers_var = writers_var
        self._pre_forbid = pre_forbid
        self._bit_var = task.bit_var
        self._forbid = {o.index: o.forbid for o in ops}
        masks = task.var_masks
        # per operator: (violation test mask, allowed mask) of each precondition, in order
        self._pre = {
            o.index: tuple((masks[v] & o.forbid, masks[v] & ~o.forbid) for v in o.pre_vars)
            for o in ops
        }
        self._goal = tuple(
            (masks[v] & task.goal_forbid, masks[v] & ~task.goal_forbid) for v in task.goal_vars
        )
        self._intf: dict[int, int] = {}
        self._ach_cache: dict[int, int] = {}

    def _achievers(self, allowed: int) -> int:
        got = self._ach_cache.get(allowed)
        if got is None:
            got = 0
            for b in _bits(allowed):
                got |= self._writers_bit[b]
            self._ach_cache[allowed] = got
        return got

    def _interferers(self, idx: int) -> int:
        got = self._intf.get(idx)
        if got is None:
            o = self.ops[idx]
            got = 0
            wb = self._writers_bit
            for b in o.eff_bits:  # conflicts, and o disabling others
                got |= (self._writers_var[self._bit_var[b]] & ~wb[b]) | self._pre_forbid[b]
            for b in _bits(o.forbid):  # others disabling o
                got |= wb[b]
            self._intf[idx] = got
        return got

    def compute(self, s: int) -> int:
        """The stubborn set of a non-goal state ``s`` (a bitmask of operator indices)."""
        seed = 0
        for bad, allowed in self._goal:
            if s & bad:
                seed = self._achievers(allowed)
                break
        stub = seed
        todo = seed
        forbid = self._forbid
        pre = self._pre
        while todo:
            low = todo & -todo
            todo ^= low
            idx = low.bit_length() - 1
            new = 0
            if s & forbid[idx]:
                for bad, allowed in pre[idx]:
                    if s & bad:
                        new = self._achievers(allowed) & ~stub
                        break
            else:
                new = self._interferers(idx) & ~stub
            if new:
                stub |= new
                todo |= new
        return stub


def worth_it(applicable: int, kept: int) -> bool:
    """Whether pruning is worth its cost: it removed ``MIN_RATIO`` of the applicable
    operators (``kept`` of ``applicable`` survived) over the first expansions."""
    return kept <= (1.0 - MIN_RATIO) * applicable
