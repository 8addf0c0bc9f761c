"""The action table: the spec flattened into plain JSON for runners we do not own.

Conditions become ``[fact, op, value]`` triples with values already coerced to the
fact type, so a consumer needs no knowledge of the spec format or of pydantic.
Actions stay a list in spec order, because order is part of the tie-breaking.
"""

from __future__ import annotations

import json
from typing import Any

from ..model.conditions import Condition
from ..model.spec import Observer, Spec

__all__ = ["TABLE_FORMAT", "action_table", "condition_json", "observer_json", "table_json"]

TABLE_FORMAT = "goalkeeper-action-table/1"


def condition_json(c: Condition) -> list[Any]:
    value = list(c.value) if c.op == "in" else c.value
    return [c.fact, c.op, value]


def observer_json(obs: Observer) -> dict[str, Any]:
    """The observer's set fields, in declaration order (stable across runs)."""
    return obs.model_dump(exclude_none=True)


def action_table(spec: Spec) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    for name, f in spec.facts.items():
        entry: dict[str, Any] = {"type": f.type, "diagnostic": f.diagnostic}
        entry["observe"] = observer_json(f.observe) if f.observe is not None else None
        if f.initial is not None:
            entry["initial"] = f.initial
        facts[name] = entry
    actions = []
    for name, a in spec.actions.items():
        actions.append(
            {
                "name": name,
                "pre": [condition_json(c) for c in a.pre_conditions],
                "effects": dict(a.effect_values),
                "cost": a.cost,
                "run": a.run,
                "destructive": a.destructive,
                "confirm": a.confirm,
                "timeout": a.timeout,
                "cwd": a.cwd,
                "env": a.env,
            }
        )
    p = spec.policy
    return {
        "format": TABLE_FORMAT,
        "name": spec.name,
        "goal": [condition_json(c) for c in spec.goal_conditions],
        "facts": facts,
        "actions": actions,
        "policy": {
            "max_ticks": p.max_ticks,
            "strikes": p.strikes,
            "observe_timeout": p.observe_timeout,
            "action_timeout": p.action_timeout,
        },
    }


def table_json(spec: Spec) -> str:
    return json.dumps(action_table(spec), indent=2, ensure_ascii=False) + "\n"
