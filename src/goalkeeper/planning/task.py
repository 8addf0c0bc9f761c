"""The planner's view of a problem: finite-domain variables, actions and a goal.

A ground task (indices only, built from a spec or a PDDL problem) compiles to a
bitset form in which every (variable, value) pair owns one bit. A state sets
exactly one bit per variable. A condition is stored as ``forbid``: the bits of
the values it rules out, so "state satisfies condition" is ``state & forbid == 0``
and applying an action is ``(state & keep) | add``. Both are one or two big-int
operations, which is what makes pure-Python search fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["GroundAction", "Operator", "Task"]


def _mask_of(bits: Iterable[int]) -> int:
    m = 0
    for b in bits:
        m |= 1 << b
    return m


def _union(masks: Iterable[int]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m


@dataclass(frozen=True, slots=True)
class GroundAction:
    """An action over variable/value indices.

    ``pre`` maps a variable to the set of value indices it may hold (a disjunction
    when the set has more than one element); ``eff`` assigns value indices.
    """

    name: str
    pre: tuple[tuple[int, frozenset[int]], ...]
    eff: tuple[tuple[int, int], ...]
    cost: float = 1.0


@dataclass(frozen=True, slots=True)
class Operator:
    """A compiled action. Bits are global (variable offset + value index)."""

    index: int
    name: str
    cost: float
    forbid: int  # applicable iff state & forbid == 0
    keep: int  # bits that survive the effect (all bits but the effect variables')
    add: int  # bits the effect sets
    pre_bits: tuple[int, ...]  # single-value conditions: each bit is required
    pre_sets: tuple[int, ...]  # multi-value conditions: masks, one bit of each is required
    eff_bits: tuple[int, ...]  # bit indices the effect sets
    eff_vars: tuple[int, ...]  # variables the effect writes
    pre_vars: tuple[int, ...]  # variables the precondition constrains
    need: int = 0  # the bits of pre_bits: a state that reaches them all has them
    pre_mask: int = 0  # need | every pre_sets mask: bits backward relevance follows


@dataclass(frozen=True)
class Task:
    """A compiled planning task. Pure data plus cheap helpers."""

    var_names: tuple[str, ...]
    domains: tuple[tuple[object, ...], ...]
    offsets: tuple[int, ...]
    var_masks: tuple[int, ...]
    operators: tuple[Operator, ...]
    goal_forbid: int
    goal_bits: tuple[int, ...]
    goal_sets: tuple[int, ...]
    goal_vars: tuple[int, ...]
    nbits: int
    full: int
    unit_cost: bool
    bit_var: tuple[int, ...] = field(repr=False)  # variable of each bit
    # what searches derive from the task alone (e.g. its independent parts), kept with it
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    # -- construction -----------------------------------------------------
    @classmethod
    def compile(
        cls,
        var_names: Sequence[str],
        domains: Sequence[Sequence[object]],
        actions: Iterable[GroundAction],
        goal: Sequence[tuple[int, frozenset[int]]],
    ) -> Task:
        offsets: list[int] = []
        masks: list[int] = []
        bit_var: list[int] = []
        n = 0
        for v, dom in enumerate(domains):
            if not dom:
                raise ValueError(f"variable {var_names[v]!r} has an empty domain")
            offsets.append(n)
            masks.append(((1 << len(dom)) - 1) << n)
            bit_var.extend([v] * len(dom))
            n += len(dom)
        full = (1 << n) - 1

        def cond(
            pairs: Sequence[tuple[int, frozenset[int]]],
        ) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
            forbid = 0
            bits: list[int] = []
            sets: list[int] = []
            cvars: list[int] = []
            for var, allowed in pairs:
                allowed_mask = 0
                for val in allowed:
                    allowed_mask |= 1 << (offsets[var] + val)
                if allowed_mask == masks[var]:
                    continue  # no constraint
                forbid |= masks[var] & ~allowed_mask
                cvars.append(var)
                if len(allowed) == 1:
                    bits.append(offsets[var] + next(iter(allowed)))
                else:
                    sets.append(allowed_mask)
            return forbid, tuple(bits), tuple(sets), tuple(cvars)

        ops: list[Operator] = []
        for a in actions:
            forbid, pbits, psets, pvars = cond(a.pre)
            clear = 0
            add = 0
            ebits: list[int] = []
            evars: list[int] = []
            for var, val in a.eff:
                clear |= masks[var]
                b = offsets[var] + val
                add |= 1 << b
                ebits.append(b)
                evars.append(var)
            ops.append(
                Operator(
                    index=len(ops),
                    name=a.name,
                    cost=float(a.cost),
                    forbid=forbid,
                    keep=full & ~clear,
                    add=add,
                    pre_bits=pbits,
                    pre_sets=psets,
                    eff_bits=tuple(ebits),
                    eff_vars=tuple(evars),
                    pre_vars=pvars,
                    need=_mask_of(pbits),
                    pre_mask=_mask_of(pbits) | _union(psets),
                )
            )
        gforbid, gbits, gsets, gvars = cond(goal)
        return cls(
            var_names=tuple(var_names),
            domains=tuple(tuple(d) for d in domains),
            offsets=tuple(offsets),
            var_masks=tuple(masks),
            operators=tuple(ops),
            goal_forbid=gforbid,
            goal_bits=gbits,
            goal_sets=gsets,
            goal_vars=gvars,
            nbits=n,
            full=full,
            unit_cost=all(o.cost == 1.0 for o in ops),
            bit_var=tuple(bit_var),
        )

    # -- states -------------------------------------------------------------
    def encode(self, values: Sequence[int]) -> int:
        """State bitset from one value index per variable."""
        if len(values) != len(self.offsets):
            raise ValueError("one value index per variable is required")
        s = 0
        for off, val in zip(self.offsets, values, strict=True):
            s |= 1 << (off + val)
        return s

    def decode(self, state: int) -> tuple[int, ...]:
        """Value index per variable of a state bitset."""
        out = []
        for off, mask in zip(self.offsets, self.var_masks, strict=True):
            out.append(((state & mask) >> off).bit_length() - 1)
        return tuple(out)

    def is_goal(self, state: int) -> bool:
        return state & self.goal_forbid == 0

    def applicable(self, state: int) -> list[Operator]:
        return [o for o in self.operators if state & o.forbid == 0]

    @staticmethod
    def apply(state: int, op: Operator) -> int:
        return (state & op.keep) | op.add

    def replay(self, state: int, plan: Sequence[int]) -> int:
        """Apply a plan (operator indices); raise ValueError at the first inapplicable step."""
        for step, i in enumerate(plan):
            op = self.operators[i]
            if state & op.forbid:
                raise ValueError(f"step {step} ({op.name}) is not applicable")
            state = (state & op.keep) | op.add
        return state
