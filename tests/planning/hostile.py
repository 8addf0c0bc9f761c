"""Specs that once made the planner blow up, as data (also used by the benchmarks).

``chains(n, k)``: ``n`` independent chains of ``k`` steps (step j of chain i needs
step j-1 done). An optimal forward search over the whole spec faces (k+1)^n states;
the hostile-input campaign saw 12 GB for 10 x 500. ``coupled=True`` makes every step
also record which chain moved last, so the chains no longer split into independent
parts and no pruning applies: the search must stay inside its memory budget.
"""

from __future__ import annotations

from typing import Any

__all__ = ["chains"]


def chains(n: int, k: int, *, counters: bool = False, coupled: bool = False) -> dict[str, Any]:
    """The spec as the data a YAML or JSON file would hold. ``counters`` uses one int
    fact per chain instead of one bool per step."""
    facts: dict[str, Any] = {}
    actions: dict[str, Any] = {}
    goal: dict[str, Any] = {}
    if coupled:
        facts["last"] = {"type": "int", "initial": -1}
    for i in range(n):
        if counters:
            facts[f"c{i}"] = {"type": "int", "initial": 0}
            goal[f"c{i}"] = k
        else:
            for j in range(k + 1):
                facts[f"c{i}_{j}"] = {"type": "bool", "initial": j == 0}
            goal[f"c{i}_{k}"] = True
        for j in range(1, k + 1):
            if counters:
                pre: dict[str, Any] = {f"c{i}": j - 1}
                eff: dict[str, Any] = {f"c{i}": j}
            else:
                pre, eff = {f"c{i}_{j - 1}": True}, {f"c{i}_{j}": True}
            if coupled:
                eff["last"] = i
            actions[f"step{i}_{j}"] = {"pre": pre, "effects": eff}
    return {"goalkeeper": 1, "name": f"chains-{n}x{k}", "goal": goal, "facts": facts,
            "actions": actions}
