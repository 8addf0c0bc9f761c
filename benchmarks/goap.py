"""GOAP-sized specs (10-30 facts and actions) compiled into Task objects.

Each spec is random but solvable by construction: a hidden plan of random actions is
walked from the initial state, and the goal picks facts of the state it ends in.
Facts are mostly booleans with a few small enums, conditions sometimes disjunctive,
costs mostly 1 with a few expensive actions, as in hand-written agent specs.
"""

from __future__ import annotations

import random

from goalkeeper.planning.task import GroundAction, Task


def goap_spec(seed: int) -> tuple[Task, int]:
    rng = random.Random(seed)
    nfacts = rng.randint(10, 30)
    nactions = rng.randint(10, 30)
    sizes = [2 if rng.random() < 0.8 else rng.randint(3, 4) for _ in range(nfacts)]
    values = [rng.randrange(s) for s in sizes]
    init = list(values)
    actions: list[GroundAction] = []
    state = list(values)
    for i in range(nactions):
        hidden = i < nactions // 2  # the first half forms a solvable chain
        pre = []
        for v in sorted(rng.sample(range(nfacts), rng.randint(1, 3))):
            allowed = {state[v]} if hidden else {rng.randrange(sizes[v])}
            if sizes[v] > 2 and rng.random() < 0.3:
                allowed.add(rng.randrange(sizes[v]))
            pre.append((v, frozenset(allowed)))
        eff = tuple((v, rng.randrange(sizes[v])) for v in sorted(rng.sample(range(nfacts), rng.randint(1, 3))))
        cost = 1.0 if rng.random() < 0.8 else float(rng.randint(2, 5))
        actions.append(GroundAction(f"act{i}", tuple(pre), eff, cost))
        if hidden:
            for v, val in eff:
                state[v] = val
    rng.shuffle(actions)
    changed = [v for v in range(nfacts) if state[v] != init[v]] or [0]
    goal_vars = sorted(rng.sample(changed, min(len(changed), rng.randint(1, 4))))
    goal = [(v, frozenset({state[v]})) for v in goal_vars]
    task = Task.compile([f"f{i}" for i in range(nfacts)], [tuple(range(s)) for s in sizes], actions, goal)
    return task, task.encode(init)
