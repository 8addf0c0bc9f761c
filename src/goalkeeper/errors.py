"""Every error goalkeeper raises.

    GoalkeeperError
    ├── SpecError            a spec file is malformed or inconsistent (carries SpecIssue list)
    ├── StateError           a state file/value does not fit the spec
    ├── PlanningError        the planner was misused (not "no plan": that is a PlanResult)
    ├── ObserverError        an observer is misconfigured (runtime failures become "unknown")
    ├── StoreError           the on-disk store cannot be read or written
    │   ├── CorruptStateError   a state file fails validation (the file is left untouched)
    │   │   └── IntegrityError  a state file or event log was changed outside goalkeeper
    │   ├── LockedError         another process owns the run/goal
    │   └── NotFoundError       no run/goal/triage item with that id
    ├── ConfigError          a goal, budget or config violates a hard rule
    ├── BudgetExceeded       a budget limit was reached (quotes limit and value)
    └── MissingExtraError    an optional dependency is not installed (names the pip line)

Only the CLI turns these into exit codes and styled messages.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BudgetExceeded",
    "ConfigError",
    "CorruptStateError",
    "GoalkeeperError",
    "IntegrityError",
    "LockedError",
    "MissingExtraError",
    "NotFoundError",
    "ObserverError",
    "PlanningError",
    "SpecError",
    "SpecIssue",
    "StateError",
    "StoreError",
]


class GoalkeeperError(Exception):
    """Root of every goalkeeper error."""


@dataclass(frozen=True, slots=True)
class SpecIssue:
    """One problem in a spec: where (key path, line) and what to do about it."""

    path: str
    message: str
    line: int | None = None
    severity: str = "error"  # "error" | "warning"
    code: str = "invalid"

    def format(self, source: str | None = None) -> str:
        where = self.path or "<root>"
        loc = f"{source}:" if source else ""
        if self.line is not None:
            loc += f"{self.line}: "
        elif loc:
            loc += " "
        return f"{loc}{where}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


class SpecError(GoalkeeperError):
    """A spec cannot be used. ``issues`` lists every problem found, not just the first."""

    def __init__(self, issues: list[SpecIssue], source: str | None = None) -> None:
        self.issues = issues
        self.source = source
        lines = [i.format(source) for i in issues] or ["invalid spec"]
        super().__init__("\n".join(lines))


class StateError(GoalkeeperError):
    """A state (fact values) does not fit the spec."""


class PlanningError(GoalkeeperError):
    """The planner cannot answer as asked: arguments it cannot use, or its memory budget reached
    (the message names the budget and how to raise it)."""


class ObserverError(GoalkeeperError):
    """An observer definition cannot be used."""


class StoreError(GoalkeeperError):
    """The on-disk store cannot be read or written."""


class CorruptStateError(StoreError):
    """A state file exists but fails validation; it is left as it is."""


class IntegrityError(CorruptStateError):
    """A goal file, seal or event log fails its signature or chain: written by someone else."""


class LockedError(StoreError):
    """Another live process holds the lock."""


class NotFoundError(StoreError):
    """No such run, goal or triage item."""


class ConfigError(GoalkeeperError):
    """A goal or configuration breaks a hard rule."""


class BudgetExceeded(GoalkeeperError):
    """A budget limit was reached; the message quotes the limit and the observed value."""

    def __init__(self, kind: str, limit: object, value: object) -> None:
        self.kind = kind
        self.limit = limit
        self.value = value
        super().__init__(f"{kind} budget exhausted: limit {limit}, observed {value}")


class MissingExtraError(GoalkeeperError, ModuleNotFoundError):
    """An optional dependency is missing; the message carries the install line."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            f"{module} is not installed; install it with: pip install 'goalkeeper[{extra}]'"
        )
