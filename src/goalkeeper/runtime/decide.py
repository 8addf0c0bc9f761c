"""A spec as the tick machine sees it (``SpecModel``): conditions, effects and the planner. Pure.

The decisions themselves live in ``machine.py``; this adapter answers its
questions about a ``Spec`` with goalkeeper's own planner. The standalone runner
answers the same questions from its action table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from ..model.conditions import format_value
from ..model.spec import Spec
from ..planning import plan
from .ledger import blocked_now, corrections
from .machine import ActionInfo, FactInfo, PlanView

__all__ = ["SpecModel", "blocked_now", "corrections", "goal_holds"]


def goal_holds(spec: Spec, facts: Mapping[str, Any]) -> bool:
    return all(c.holds(facts.get(c.fact)) for c in spec.goal_conditions)


class SpecModel:
    """``machine.Model`` over a loaded spec, planning with ``search``."""

    def __init__(self, spec: Spec, search: str = "astar") -> None:
        self.spec, self.search = spec, search
        self.facts = {f: FactInfo(d.diagnostic, d.initial) for f, d in spec.facts.items()}
        self.actions = {
            n: ActionInfo(tuple(sorted({c.fact for c in a.pre_conditions})), tuple(a.effect_values),
                          a.destructive, a.confirm)
            for n, a in spec.actions.items()
        }
        self.goal_facts = tuple(sorted({c.fact for c in spec.goal_conditions}))
        self.strikes = spec.policy.strikes

    def goal_holds(self, facts: Mapping[str, Any]) -> bool:
        return goal_holds(self.spec, facts)

    def unmet(self, action: str, facts: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(c.fact, str(c)) for c in self.spec.actions[action].pre_conditions if not c.holds(facts.get(c.fact))]

    def effect_holds(self, fact: str, want: Any, got: Any) -> bool:
        if got == want:
            return True
        if got is None or self.spec.facts[fact].type not in ("int", "float"):
            return False
        # A measured number need not equal the claimed one: it must satisfy every
        # condition the claimed value satisfies, which is all the planner relied on.
        conds = [c for c in self.spec.goal_conditions if c.fact == fact]
        for a in self.spec.actions.values():
            conds.extend(c for c in a.pre_conditions if c.fact == fact)
        return bool(conds) and all(c.holds(got) for c in conds if c.holds(want))

    def plan(self, facts: Mapping[str, Any], exclude: Sequence[str]) -> PlanView:
        r = plan(self.spec, facts, search=self.search, exclude=[a for a in exclude if a in self.spec.actions])
        if r.found:
            return PlanView(True, r.plan, r.cost, r.expanded)
        return PlanView(False, (), 0.0, r.expanded, r.reason, tuple(asdict(u) for u in r.unreachable),
                        tuple(r.to_dict()["gaps"]))

    def fmt(self, value: Any) -> str:
        return format_value(value)
