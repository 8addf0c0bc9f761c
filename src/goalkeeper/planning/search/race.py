"""The default optimal search: blind search and LM-cut A* raced on one thread.

Neither heuristic wins everywhere: blind search expands 10-1000x more states but each
costs 1/30 (compiled) to 1/300 (pure Python) of an LM-cut evaluation. Racing them,
always advancing the one that has used less time, costs at most twice the better of
the two without predicting which one that is. Both are optimal, so whichever ends
first is the answer.

Blind search first runs alone for ``HEADSTART`` (2 ms): GOAP-sized specs end there,
without paying for LM-cut's set-up. Then, in the compiled core, LM-cut's tie-breaking
variant is picked on a sample of states (``tiebreak``; in pure Python the 64 sample
evaluations would cost more than they save), and the race proper begins.

The race also learns from the task as it goes. Breadth-first search reports the size
of each depth layer, and LM-cut A* the f value it has reached, a lower bound on the
plan length. Once the layers have grown steadily (by 20% or more for ``WINDOW``
layers), continuing that growth up to the bound predicts how many more states blind
search needs; at the blind side's own measured time per state, that is how long it
still needs. If that exceeds ``GROWTH`` times what the race has spent so far (and
``FLOOR`` seconds), blind search is dropped and LM-cut gets the whole thread. Where
the state space closes in (gripper), or the plan is near (GOAP-sized specs), blind
search keeps running and wins.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..result import SearchLimits, SearchOutcome
from ..task import Operator, Task

if TYPE_CHECKING:
    from .core import Core

__all__ = ["FLOOR", "GROWTH", "HEADSTART", "WINDOW", "blind_hopeless", "race"]

WINDOW = 4
GROWTH = 8.0
FLOOR = 0.005
HEADSTART = 0.002  # seconds of blind search alone before LM-cut is set up


def race(
    task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits, uniform: bool,
    core: Core,
) -> SearchOutcome:
    """Race blind search against LM-cut A* (both optimal) and return the first to end."""
    layers: list[int] = []
    fbound = [0.0]
    first = (
        core.bfs_steps(task, init, ops, limits, layers) if uniform
        else core.blind_steps(task, init, ops, limits)
    )
    clock = time.perf_counter
    t0 = clock()
    alive = [True, True]
    while True:  # small tasks end here, before LM-cut costs anything
        try:
            next(first)
            if clock() - t0 >= HEADSTART:
                break
        except StopIteration as stop:
            done: SearchOutcome = stop.value
            if done.exhausted:
                done.heuristic = f"{done.heuristic} (race)"
                return done
            alive[0] = False  # a limit: LM-cut gets what is left
            break
    used = [clock() - t0, 0.0]
    order = None  # in pure Python, sampling costs more than a better variant saves
    if core.name == "c":
        from .tiebreak import pick_order

        order = pick_order(task, init, ops, core, core.prop_bits(task, ops))
    second = core.lmcut_steps(task, init, ops, limits, fbound, order)
    used[1] = clock() - t0 - used[0]  # choosing the variant is LM-cut's time
    step = ops[0].cost
    gens = [first, second]
    seen = 0
    expanded_blind = 0
    while True:
        i = 0 if (used[0] <= used[1] and alive[0]) or not alive[1] else 1
        t0 = clock()
        try:
            next(gens[i])
        except StopIteration as stop:
            out: SearchOutcome = stop.value
            if out.exhausted or not alive[1 - i]:
                out.heuristic = f"{out.heuristic} (race)"
                return out
            alive[i] = False  # hit a limit: let the other one use what is left
        finally:
            used[i] += clock() - t0
        if i == 0 and len(layers) > seen and alive[1]:
            seen = len(layers)
            expanded_blind = sum(layers[:-1])  # every state of the finished layers
            per_state = used[0] / max(expanded_blind, 1)
            if blind_hopeless(layers, fbound[0] / step, per_state, used[0] + used[1]):
                alive[0] = False
                gens[0].close()


def blind_hopeless(
    layers: list[int], depth: float, per_state: float, spent: float, window: int = WINDOW
) -> bool:
    """Whether breadth-first search is losing the race.

    Its layers grew by at least 20% each over the last ``window`` layers (no sign of
    the state space closing in, as gripper-like tasks show early on), and that
    growth, continued up to ``depth`` (a lower bound on the plan length), needs more
    than ``GROWTH`` times ``spent`` seconds (and ``FLOOR``) at ``per_state`` seconds
    per state.
    """
    if len(layers) <= window:
        return False
    recent = layers[-window - 1:]
    if any(b < 1.2 * a for a, b in zip(recent, recent[1:], strict=False)):
        return False
    budget = max(GROWTH * spent, FLOOR) / max(per_state, 1e-9)
    r = (recent[-1] / recent[0]) ** (1.0 / window)
    total = 0.0
    size = float(layers[-1])
    for _ in range(int(depth) - len(layers) + 1):
        size *= r
        total += size
        if total > budget:
            return True
    return False
