"""The tick machine's vocabulary: what it knows about a spec, the instructions it gives and
the results that answer them. Frozen dataclasses, no behaviour.

Standard library only: the build copies this file into the standalone runner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

__all__ = [
    "DONE", "ESCALATE", "INTERRUPTED", "Act", "Acted", "ActionInfo", "Commit", "Confirm", "Done", "Escalate",
    "FactInfo", "Filed", "Instruction", "MachineError", "Model", "Observe", "Observed", "Options", "PlanView",
    "Propose", "Proposed", "Resume",
]

DONE, ESCALATE = "DONE", "ESCALATE"  # what a hybrid model may answer instead of an action
INTERRUPTED = "the runner stopped while this action ran; its effects are re-observed"


class MachineError(TypeError):
    """A driver fed the machine something that does not answer its instruction (a bug)."""


# -- what the machine knows about a spec ------------------------------------------------


@dataclass(frozen=True)
class FactInfo:
    diagnostic: bool = False
    initial: Any = None


@dataclass(frozen=True)
class ActionInfo:
    pre_facts: tuple[str, ...] = ()
    effects: tuple[tuple[str, Any], ...] = ()
    destructive: bool = False
    confirm: bool = False


@dataclass(frozen=True)
class PlanView:
    found: bool
    plan: tuple[str, ...] = ()
    cost: float = 0.0
    expanded: int = 0
    reason: str = ""  # why there is no plan
    unreachable: tuple[dict[str, Any], ...] = ()  # {fact, condition, current, setters: [...]}
    gaps: tuple[dict[str, Any], ...] = ()  # {action, fact, condition, root}


class Model(Protocol):
    """A spec as the machine needs it. Pure; facts and actions in declaration order."""

    @property
    def facts(self) -> Mapping[str, FactInfo]: ...

    @property
    def actions(self) -> Mapping[str, ActionInfo]: ...

    @property
    def goal_facts(self) -> tuple[str, ...]: ...

    @property
    def strikes(self) -> int: ...  # policy.strikes

    def goal_holds(self, facts: Mapping[str, Any]) -> bool: ...

    def unmet(self, action: str, facts: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(fact, "fact op value") of each precondition that does not hold."""
        ...

    def effect_holds(self, fact: str, want: Any, got: Any) -> bool: ...

    def plan(self, facts: Mapping[str, Any], exclude: Sequence[str]) -> PlanView: ...

    def fmt(self, value: Any) -> str: ...


# -- instructions and what answers them -------------------------------------------------


@dataclass(frozen=True)
class Commit:
    event: Mapping[str, Any]


@dataclass(frozen=True)
class Observe:
    facts: tuple[str, ...]
    fresh: bool = False


@dataclass(frozen=True)
class Observed:
    values: Mapping[str, Any]  # None = unknown
    errors: Mapping[str, str] = field(default_factory=dict)  # why a fact is unknown


@dataclass(frozen=True)
class Act:
    action: str
    tick: int


@dataclass(frozen=True)
class Acted:
    ok: bool  # the command exited 0 (or there is none)
    text: str  # "exit 0", "exit 3: <last stderr line>", "timed out after 5.0s", ...
    seconds: float = 0.0
    log: str | None = None
    interrupted: bool = False  # nobody knows how it ended (e.g. its worker died)


@dataclass(frozen=True)
class Confirm:
    action: str


@dataclass(frozen=True)
class Propose:
    facts: Mapping[str, Any]
    tick: int
    blocked: tuple[str, ...]
    feedback: tuple[str, ...]


@dataclass(frozen=True)
class Proposed:
    action: str | None  # None: the model gave no usable answer (``error`` says why)
    expects: Mapping[str, Any] = field(default_factory=dict)
    reason: str = ""
    cost_dollars: float = 0.0
    cost_known: bool = True
    error: str | None = None


@dataclass(frozen=True)
class Escalate:
    reason: str
    message: str
    severity: Literal["warning", "critical"]
    summary: str
    context: Mapping[str, Any]  # the triage item's context, as is
    suggestions: tuple[str, ...]
    unreachable: tuple[dict[str, Any], ...] = ()
    gaps: tuple[dict[str, Any], ...] = ()
    blocked: tuple[str, ...] = ()


@dataclass(frozen=True)
class Filed:
    triage_id: str
    report: str | None = None


@dataclass(frozen=True)
class Done:
    status: Literal["reached", "escalated"]


Instruction = Commit | Observe | Act | Confirm | Propose | Escalate | Done


@dataclass(frozen=True)
class Resume:
    """A run picked up again after its runner stopped."""

    spec_path: str
    spec_sha256: str
    max_ticks: int | None
    max_dollars: float | None = None
    dropped: tuple[str, ...] = ()  # beliefs the (edited) spec no longer accepts


@dataclass(frozen=True)
class Options:
    yes: bool = False  # destructive actions with confirm: true are approved
    hybrid: bool = False  # a model proposes each action (Propose); code validates it
    name: str = ""  # the spec's name, for summaries
    until: tuple[str, ...] = ()  # commands that exit 0 once the goal holds (for `triage act --goal`)
    workspace: str = ""
    opening: Mapping[str, Any] = field(default_factory=dict)  # extra run.started fields
    resume: Resume | None = None
