"""Delete-relaxation view of a task on int-indexed arrays, shared by h_max/h_add/h_FF/LM-cut.

Propositions are the state bits that some condition mentions (bits nobody asks for,
such as the "False" value of a STRIPS fact, are dropped: reaching them never helps).
A disjunctive condition ``var in {a, b}`` becomes an auxiliary proposition with one
zero-cost auxiliary operator per allowed value, so max/sum/min semantics come out
right in every heuristic without special cases (h_max(aux) = min over the values).
The goal becomes one zero-cost operator adding a ``goal`` proposition, and operators
without conditions get the always-true ``true`` proposition as precondition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..task import Operator, Task

__all__ = ["INF", "Relaxed", "build_relaxed"]

INF = float("inf")


@dataclass(slots=True)
class Relaxed:
    nprops: int
    nops: int
    bit_prop: dict[int, int]  # state bit -> proposition
    prop_mask: int  # state bits that are propositions
    pre: list[tuple[int, ...]]  # operator -> precondition propositions (never empty)
    add: list[tuple[int, ...]]  # operator -> added propositions
    cost: list[float]
    orig: list[int]  # operator -> index in Task.operators, -1 for auxiliary/goal ops
    npre: list[int]
    pre_of: list[tuple[int, ...]]  # proposition -> operators needing it
    achievers: list[tuple[int, ...]]  # proposition -> operators adding it
    goal: int
    true: int
    integer_costs: bool

    def init_props(self, state: int) -> list[int]:
        """Propositions true in a state (always including ``true``)."""
        out = [self.true]
        x = state & self.prop_mask
        bp = self.bit_prop
        while x:
            low = x & -x
            out.append(bp[low.bit_length() - 1])
            x ^= low
        return out


def build_relaxed(task: Task, ops: Sequence[Operator]) -> Relaxed:
    """Compile the relaxation of ``task`` restricted to ``ops`` (e.g. minus excluded ones)."""
    bit_prop: dict[int, int] = {}
    set_prop: dict[int, int] = {}
    nprops = 0

    def bit(b: int) -> int:
        nonlocal nprops
        p = bit_prop.get(b)
        if p is None:
            p = bit_prop[b] = nprops
            nprops += 1
        return p

    def disj(mask: int) -> int:
        nonlocal nprops
        p = set_prop.get(mask)
        if p is None:
            p = set_prop[mask] = nprops
            nprops += 1
        return p

    def cond(bits: Sequence[int], sets: Sequence[int]) -> list[int]:
        return [bit(b) for b in bits] + [disj(m) for m in sets]

    op_pres = [cond(o.pre_bits, o.pre_sets) for o in ops]
    goal_pres = cond(task.goal_bits, task.goal_sets)
    for mask in list(set_prop):
        x = mask
        while x:
            low = x & -x
            bit(low.bit_length() - 1)
            x ^= low
    true = nprops
    goal = nprops + 1
    nprops += 2

    pre: list[tuple[int, ...]] = []
    add: list[tuple[int, ...]] = []
    cost: list[float] = []
    orig: list[int] = []
    for o, ps in zip(ops, op_pres, strict=True):
        adds = tuple(sorted({bit_prop[b] for b in o.eff_bits if b in bit_prop}))
        if not adds:
            continue  # adds nothing anyone asks for: useless in the relaxation
        pre.append(tuple(sorted(set(ps))) or (true,))
        add.append(adds)
        cost.append(o.cost)
        orig.append(o.index)
    for mask, p in sorted(set_prop.items(), key=lambda kv: kv[1]):
        x = mask
        while x:
            low = x & -x
            pre.append((bit_prop[low.bit_length() - 1],))
            add.append((p,))
            cost.append(0.0)
            orig.append(-1)
            x ^= low
    pre.append(tuple(sorted(set(goal_pres))) or (true,))
    add.append((goal,))
    cost.append(0.0)
    orig.append(-1)

    nops = len(pre)
    pre_of: list[list[int]] = [[] for _ in range(nprops)]
    achievers: list[list[int]] = [[] for _ in range(nprops)]
    for i in range(nops):
        for p in pre[i]:
            pre_of[p].append(i)
        for p in add[i]:
            achievers[p].append(i)
    prop_mask = 0
    for b in bit_prop:
        prop_mask |= 1 << b
    return Relaxed(
        nprops=nprops,
        nops=nops,
        bit_prop=bit_prop,
        prop_mask=prop_mask,
        pre=pre,
        add=add,
        cost=cost,
        orig=orig,
        npre=[len(p) for p in pre],
        pre_of=[tuple(x) for x in pre_of],
        achievers=[tuple(x) for x in achievers],
        goal=goal,
        true=true,
        integer_costs=all(c == int(c) for c in cost),
    )
