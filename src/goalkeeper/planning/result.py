"""What the planner returns: a plan or a typed reason why there is none."""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = [
    "DEFAULT_MEMORY_MB",
    "MEMORY_ENV",
    "Blocker",
    "PlanResult",
    "SearchLimits",
    "SearchOutcome",
    "Setter",
    "UnreachableFact",
]


DEFAULT_MEMORY_MB = 2048.0
MEMORY_ENV = "GOALKEEPER_PLANNER_MAX_MB"


def default_memory_mb() -> float | None:
    """The memory budget when none is given: ``GOALKEEPER_PLANNER_MAX_MB`` (a number
    of megabytes, or ``none`` for unbounded), else ``DEFAULT_MEMORY_MB``.

    A hostile or careless spec (ten independent 500-step chains) once made a search
    grow to 12 GB; a planner inside an agent loop must fail cleanly long before."""
    raw = os.environ.get(MEMORY_ENV, "").strip().lower()
    if not raw:
        return DEFAULT_MEMORY_MB
    if raw in ("none", "unlimited", "0"):
        return None
    try:
        mb = float(raw)
    except ValueError:
        mb = math.nan
    if not (math.isfinite(mb) and mb > 0):  # nan, inf or a negative would quietly turn the guard off
        from ..errors import PlanningError

        raise PlanningError(
            f"{MEMORY_ENV}={raw!r} is not a positive number of megabytes; set it to e.g. 4096, "
            "or to 'none' for no memory budget"
        ) from None
    return mb


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Bounds for one search; ``None`` means unbounded.

    ``max_memory_mb`` bounds how much the process may grow while searching (resident
    memory, measured; default ``GOALKEEPER_PLANNER_MAX_MB`` or 2048 MB). Going over it
    raises ``PlanningError`` naming the budget and how to raise it.
    """

    max_expansions: int | None = None
    max_seconds: float | None = None
    max_memory_mb: float | None = field(default_factory=default_memory_mb)


@dataclass(slots=True)
class SearchOutcome:
    """What a search algorithm reports (operator indices, not names).

    ``plan is None`` with ``exhausted=True`` proves there is no plan;
    ``exhausted=False`` means a limit stopped the search first.
    """

    plan: list[int] | None
    cost: float
    expanded: int
    generated: int
    exhausted: bool = True
    heuristic: str = ""


@dataclass(frozen=True, slots=True)
class Blocker:
    """A precondition of a setter action that cannot hold from the current state.

    ``setters`` explains it in turn: the actions that could make it hold and what
    blocks them, down to the facts no available action sets.
    """

    fact: str
    condition: str
    setters: tuple[Setter, ...] = ()


@dataclass(frozen=True, slots=True)
class Setter:
    """An action whose effect would satisfy an unreachable goal condition."""

    action: str
    blocked: tuple[Blocker, ...]
    excluded: bool = False


@dataclass(frozen=True, slots=True)
class UnreachableFact:
    """A goal condition no plan can make true, with the actions that could."""

    fact: str
    condition: str
    current: Any
    setters: tuple[Setter, ...]


@dataclass(frozen=True)
class PlanResult:
    status: Literal["found", "unreachable", "limit"]
    plan: tuple[str, ...]
    cost: float
    expanded: int
    generated: int
    seconds: float
    search: str
    heuristic: str = ""
    unreachable: tuple[UnreachableFact, ...] = ()
    reason: str = ""
    steps: tuple[int, ...] = field(default=(), repr=False)

    @property
    def found(self) -> bool:
        return self.status == "found"

    def gaps(self) -> list[tuple[str, str, str, bool]]:
        """The blocked (action, fact, condition) pairs, goal side first, down to the root.

        ``root`` is true where no available action can set the fact: making that
        one condition hold (in the world, or with a new action) closes the gap.
        """
        out: list[tuple[str, str, str, bool]] = []

        def walk(setters: tuple[Setter, ...]) -> None:
            for s in setters:
                for b in s.blocked:
                    root = not b.setters or all(x.excluded for x in b.setters)
                    pair = (s.action, b.fact, b.condition, root)
                    if pair not in out:
                        out.append(pair)
                    walk(b.setters)

        for u in self.unreachable:
            walk(u.setters)
        return out

    def to_dict(self) -> dict[str, Any]:
        cost: float | int = self.cost
        if isinstance(cost, float) and cost.is_integer():
            cost = int(cost)
        return {
            "status": self.status,
            "plan": list(self.plan),
            "cost": cost if self.status == "found" else None,
            "expanded": self.expanded,
            "generated": self.generated,
            "seconds": round(self.seconds, 6),
            "search": self.search,
            "heuristic": self.heuristic,
            "unreachable": [asdict(u) for u in self.unreachable],
            "gaps": [
                {"action": a, "fact": f, "condition": c, "root": r} for a, f, c, r in self.gaps()
            ],
            "reason": self.reason,
        }
