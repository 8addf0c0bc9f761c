"""Budgets as small composable limits (``iterations(15) & duration(7200) & dollars(10)``).

Each limit looks at a :class:`Usage` snapshot and either passes or reports a
:class:`~goalkeeper.errors.BudgetExceeded` that quotes the limit and the
observed value. ``None`` means unlimited. Checks run before every maker call.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BudgetExceeded
from .goal import Budget, Goal, parse_duration

__all__ = [
    "AllOf",
    "DollarLimit",
    "DurationLimit",
    "IterationLimit",
    "Limit",
    "Usage",
    "from_budget",
    "usage_of",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """What has been spent so far, as seen just before the next maker call."""

    iterations: int = 0
    elapsed_seconds: float = 0.0
    dollars: float = 0.0
    last_cost: float = 0.0


class Limit:
    """Base of the limits; ``a & b`` fails when either fails."""

    def exceeded(self, usage: Usage) -> BudgetExceeded | None:
        raise NotImplementedError

    def check(self, usage: Usage) -> None:
        err = self.exceeded(usage)
        if err is not None:
            raise err

    def __and__(self, other: Limit) -> AllOf:
        return AllOf((self, other))


@dataclass(frozen=True, slots=True)
class AllOf(Limit):
    parts: tuple[Limit, ...]

    def exceeded(self, usage: Usage) -> BudgetExceeded | None:
        for p in self.parts:
            err = p.exceeded(usage)
            if err is not None:
                return err
        return None

    def __and__(self, other: Limit) -> AllOf:
        return AllOf((*self.parts, other))


@dataclass(frozen=True, slots=True)
class IterationLimit(Limit):
    max_iterations: int | None

    def exceeded(self, usage: Usage) -> BudgetExceeded | None:
        if self.max_iterations is not None and usage.iterations >= self.max_iterations:
            return BudgetExceeded("iterations", self.max_iterations, usage.iterations)
        return None


@dataclass(frozen=True, slots=True)
class DurationLimit(Limit):
    max_seconds: float | None

    def exceeded(self, usage: Usage) -> BudgetExceeded | None:
        if self.max_seconds is not None and usage.elapsed_seconds >= self.max_seconds:
            return BudgetExceeded(
                "duration", f"{self.max_seconds:g}s", f"{usage.elapsed_seconds:.1f}s (paused time excluded)"
            )
        return None


@dataclass(frozen=True, slots=True)
class DollarLimit(Limit):
    """Spent dollars; also refuses to start an iteration the remainder probably cannot pay for."""

    max_dollars: float | None

    def exceeded(self, usage: Usage) -> BudgetExceeded | None:
        if self.max_dollars is None:
            return None
        if usage.dollars >= self.max_dollars:
            return BudgetExceeded("dollars", f"${self.max_dollars:.2f}", f"${usage.dollars:.2f}")
        remaining = self.max_dollars - usage.dollars
        if remaining < usage.last_cost:
            return BudgetExceeded(
                "dollars",
                f"${self.max_dollars:.2f}",
                f"${usage.dollars:.2f} spent; ${remaining:.2f} left is below the last iteration's "
                f"cost ${usage.last_cost:.2f}",
            )
        return None


def from_budget(budget: Budget) -> AllOf:
    return (
        IterationLimit(budget.max_iterations)
        & DurationLimit(parse_duration(budget.max_duration))
        & DollarLimit(budget.max_dollars)
    )


def usage_of(goal: Goal, extra_seconds: float = 0.0) -> Usage:
    """Usage of ``goal``: iterations whose maker ran, active time, dollars, last cost."""
    made = [h for h in goal.history if h.phase != "maker"]
    return Usage(
        iterations=len(made),
        elapsed_seconds=goal.elapsed_seconds + max(0.0, extra_seconds),
        dollars=goal.spent_dollars(),
        last_cost=made[-1].cost_dollars if made else 0.0,
    )
