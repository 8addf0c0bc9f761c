"""A goal's current verdict, in the words a host agent and its hooks need."""

from __future__ import annotations

from typing import Any

from .goal import Goal

__all__ = ["check_verdict"]


def check_verdict(goal: Goal) -> dict[str, Any]:
    """``state``, the escalation ``reason``, ``failing`` checks, ``findings`` and the ``nextHint``."""
    last = goal.history[-1] if goal.history else None
    failing = [f"{c.command}: {c.summary}" for c in (last.condition_results if last else []) if not c.passed]
    findings = [str(f.get("detail")) + (f" ({f.get('path')}:{f.get('line')})" if f.get("line") else "")
                for f in (last.findings if last else [])][:20]
    esc = goal.escalation
    return {
        "goalId": goal.goal_id,
        "state": goal.state,
        "reason": esc.reason if esc and goal.state in ("escalated", "failed") else None,
        "detail": esc.detail if esc else None,
        "triageId": esc.triage_id if esc else None,
        "iteration": last.iteration if last else 0,
        "maxIterations": goal.budget.max_iterations,
        "failing": failing,
        "findings": findings,
        "nextHint": goal.last_hint(),
        "spentDollars": goal.spent_dollars(),
    }
