"""Random finite-domain tasks and a brute-force optimal solver to check searches against."""

from __future__ import annotations

import heapq
import itertools
import random

from goalkeeper.planning.task import GroundAction, Task


def random_task(seed: int, nvars: int = 4, nactions: int = 8) -> tuple[Task, int]:
    """Multi-valued variables (domains 2-4), disjunctive conditions, non-unit costs."""
    rng = random.Random(seed)
    sizes = [rng.randint(2, 4) for _ in range(nvars)]

    def condition(k: int) -> tuple[tuple[int, frozenset[int]], ...]:
        out = []
        for v in sorted(rng.sample(range(nvars), k)):
            n = rng.randint(1, sizes[v] - 1) if rng.random() < 0.35 else 1
            out.append((v, frozenset(rng.sample(range(sizes[v]), n))))
        return tuple(out)

    actions = []
    for i in range(nactions):
        pre = condition(rng.randint(0, min(3, nvars)))
        eff_vars = sorted(rng.sample(range(nvars), rng.randint(1, min(2, nvars))))
        eff = tuple((v, rng.randrange(sizes[v])) for v in eff_vars)
        cost = rng.choice([1.0, 1.0, 2.0, 0.5, 3.0, 0.0])
        actions.append(GroundAction(f"a{i}", pre, eff, cost))
    goal = list(condition(rng.randint(1, min(3, nvars))))
    names = [f"v{i}" for i in range(nvars)]
    task = Task.compile(names, [tuple(range(s)) for s in sizes], actions, goal)
    init = task.encode([rng.randrange(s) for s in sizes])
    return task, init


def brute_force(task: Task, init: int, exclude: frozenset[int] = frozenset()) -> float | None:
    """Optimal plan cost by Dijkstra over the explicit state space (None: no plan)."""
    dist = {init: 0.0}
    heap = [(0.0, 0, init)]
    counter = itertools.count(1)
    while heap:
        d, _, s = heapq.heappop(heap)
        if d > dist[s]:
            continue
        if task.is_goal(s):
            return d
        for o in task.applicable(s):
            if o.index in exclude:
                continue
            t = task.apply(s, o)
            nd = d + o.cost
            if nd < dist.get(t, float("inf")):
                dist[t] = nd
                heapq.heappush(heap, (nd, next(counter), t))
    return None
