"""LM-cut tie-breaking variants, and picking one per task from a sample of states.

LM-cut's value depends on how ties are broken: which precondition of equal h_max an
operator hangs from decides the cuts. The order in which a state's propositions enter
the exploration is the knob here: the same task gives h(init) = 14 in ascending and
descending bit order and 22 in some shuffled order (freecell task04), and which order
is best differs by domain and task. So before LM-cut A* starts, each of ``VARIANTS``
orders is scored on a small sample of states near the initial state (breadth-first,
``SAMPLE`` states), and the order with the highest total h is used; ties go to the
plain ascending order. That costs ``VARIANTS * SAMPLE`` LM-cut evaluations, a few
milliseconds in the compiled core; where one evaluation is so slow that they would
cost more than ``MAX_SECONDS`` (a task whose relaxed plans have thousands of steps),
the ascending order is used unsampled.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..task import Operator, Task

if TYPE_CHECKING:
    from .core import Core

__all__ = ["MAX_SECONDS", "SAMPLE", "VARIANTS", "orders", "pick_order", "sample_states"]

VARIANTS = 4
SAMPLE = 16
MAX_SECONDS = 0.05  # the most sampling may cost, estimated from the first evaluation


def orders(prop_bits: Sequence[int], n: int = VARIANTS) -> list[list[int]]:
    """Candidate orders of the proposition bits: ascending, descending, then shuffles
    with fixed seeds (so runs are reproducible)."""
    asc = sorted(prop_bits)
    out = [asc, asc[::-1]]
    for k in range(2, n):
        shuffled = asc[:]
        random.Random(k).shuffle(shuffled)
        out.append(shuffled)
    return out[:n]


def sample_states(init: int, ops: Sequence[Operator], n: int = SAMPLE) -> list[int]:
    """Up to ``n`` states breadth-first from ``init`` (init first)."""
    seen = {init}
    out = [init]
    queue = deque([init])
    while queue and len(out) < n:
        s = queue.popleft()
        for o in ops:
            if s & o.forbid:
                continue
            t = (s & o.keep) | o.add
            if t not in seen:
                seen.add(t)
                out.append(t)
                queue.append(t)
                if len(out) >= n:
                    break
    return out


def pick_order(
    task: Task, init: int, ops: tuple[Operator, ...], core: Core, prop_bits: Sequence[int]
) -> list[int]:
    """The candidate order whose LM-cut values sum highest over the sample."""
    cands = orders(prop_bits)
    t0 = time.perf_counter()
    first = core.lmcut_value(task, ops, init, cands[0])
    if (time.perf_counter() - t0) * VARIANTS * SAMPLE > MAX_SECONDS:
        return cands[0]  # evaluations this slow (huge relaxed plans): sampling cannot pay
    states = sample_states(init, ops)
    best = cands[0]
    best_score = -1.0
    for order in cands:
        score = sum(
            first if s == init and order is cands[0] else core.lmcut_value(task, ops, s, order)
            for s in states
        )
        if score > best_score:  # strictly: ties keep the earlier order
            best, best_score = order, score
    return best
