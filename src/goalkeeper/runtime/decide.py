"""The tick decision and the action verdict: pure functions, no I/O.

The driver observes, calls ``decide``, and carries out what it returns. Keeping
the decision pure lets the same code run in tests, locally, or inside a
durable-workflow engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model.conditions import format_value
from ..model.spec import Spec
from ..planning import PlanResult, plan

__all__ = [
    "Escalate",
    "Execute",
    "Reached",
    "Verdict",
    "blocked_now",
    "corrections",
    "decide",
    "goal_holds",
    "judge",
]

EscalationReason = Literal[
    "unreachable", "tick_cap", "no_admissible_action", "approval_required", "budget_exhausted",
    "model_unavailable",
]


@dataclass(frozen=True)
class Reached:
    pass


@dataclass(frozen=True)
class Execute:
    action: str
    result: PlanResult


@dataclass(frozen=True)
class Escalate:
    reason: EscalationReason
    message: str
    result: PlanResult | None = None
    blocked: tuple[str, ...] = ()


Decision = Reached | Execute | Escalate


def goal_holds(spec: Spec, facts: Mapping[str, Any]) -> bool:
    return all(c.holds(facts.get(c.fact)) for c in spec.goal_conditions)


def blocked_now(blocked: Mapping[str, Mapping[str, Any]], facts: Mapping[str, Any], spec_sha: str) -> list[str]:
    """Actions that tripped a replan and may not run again: nothing changed since.

    The snapshot holds every fact value plus the spec hash; any difference (a fact
    or the spec, i.e. an input) lifts the block.
    """
    current = {**facts, "__spec__": spec_sha}
    return sorted(a for a, snap in blocked.items() if dict(snap) == current)


def decide(
    spec: Spec,
    facts: Mapping[str, Any],
    *,
    ticks: int,
    max_ticks: int | None,
    blocked: list[str],
    search: str = "astar",
) -> Decision:
    if goal_holds(spec, facts):
        return Reached()
    if max_ticks is not None and ticks >= max_ticks:
        return Escalate(
            "tick_cap",
            f"tick cap reached: {ticks} of max_ticks {max_ticks} used and the goal does not hold",
        )
    result = plan(spec, facts, search=search)
    if not result.found:
        return Escalate("unreachable", result.reason, result, tuple(blocked))
    if result.plan[0] not in blocked:
        return Execute(result.plan[0], result)
    # The best plan starts with an action that already failed until the strike
    # limit with nothing changed since: look for a way around it instead.
    alt = plan(spec, facts, search=search, exclude=blocked)
    if alt.found:
        return Execute(alt.plan[0], alt)
    return Escalate(
        "no_admissible_action",
        f"every plan needs {', '.join(blocked)} now, which already failed until the strike "
        "limit and nothing observed has changed since; it will not be retried silently",
        result,
        tuple(blocked),
    )


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str
    missing: tuple[str, ...] = field(default=())


def _effect_holds(spec: Spec, fact: str, want: Any, got: Any) -> bool:
    if got == want:
        return True
    if got is None or spec.facts[fact].type not in ("int", "float"):
        return False
    # A measured number need not equal the claimed one: it must satisfy every
    # condition the claimed value satisfies, which is all the planner relied on.
    conds = [c for c in spec.goal_conditions if c.fact == fact]
    for a in spec.actions.values():
        conds.extend(c for c in a.pre_conditions if c.fact == fact)
    return bool(conds) and all(c.holds(got) for c in conds if c.holds(want))


def judge(spec: Spec, action: str, exit_ok: bool, exit_text: str, after: Mapping[str, Any]) -> Verdict:
    """Did the action work? A zero exit is not enough: its observable effects must hold."""
    if not exit_ok:
        return Verdict(False, exit_text)
    missing = tuple(
        f"{f} (expected {format_value(v)}, observed {format_value(after.get(f))})"
        for f, v in spec.actions[action].effect_values
        if not spec.facts[f].diagnostic and not _effect_holds(spec, f, v, after.get(f))
    )
    if missing:
        return Verdict(False, "exited 0 but its effects did not happen: " + "; ".join(missing), missing)
    return Verdict(True, exit_text)


def corrections(believed: Mapping[str, Any], observed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Facts whose believed value turned out different when observed."""
    return [
        {"fact": f, "believed": believed.get(f), "observed": v}
        for f, v in observed.items()
        if believed.get(f) != v
    ]
