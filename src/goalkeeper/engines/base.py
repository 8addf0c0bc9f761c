"""The engine contract: one set of operations, carried out here or on Temporal.

Both engines run the same pure decisions (``runtime.machine`` for GOAP runs,
``convergence.decide`` for goals); an engine only decides where state lives
and who performs the side effects. The CLI and the public API talk to an
:class:`Engine` and never ask which one it is.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..convergence.goal import Goal
    from ..runtime.driver import RunOptions
    from ..runtime.state import RunState

__all__ = ["Engine", "EventSink"]

EventSink = Callable[[dict[str, Any]], None]


@runtime_checkable
class Engine(Protocol):
    """Start and resume GOAP runs; run, pause, resume, abandon, fetch and list goals."""

    name: str
    root: Path | None

    def start_run(self, spec_path: str | Path, options: RunOptions, *, wait: bool = True) -> RunState: ...

    def resume_run(self, run_id: str, options: RunOptions, spec_path: str | Path | None = None) -> RunState: ...

    def run_goal(self, goal_id: str, *, on_event: EventSink | None = None, wait: bool = True) -> Goal: ...

    def pause_goal(self, goal_id: str) -> str: ...

    def resume_goal(self, goal_id: str, *, max_iterations: int | None = None, max_dollars: float | None = None,
                    max_duration: str | None = None, run: bool = True, on_event: EventSink | None = None) -> Goal: ...

    def abandon_goal(self, goal_id: str) -> str: ...

    def fetch_goal(self, goal_id: str) -> Goal: ...

    def list_goals(self, broken: list[tuple[str, str]] | None = None) -> list[Goal]: ...

    def resolve_goal_id(self, text: str) -> str:
        """The goal id a user typed (an id, a unique prefix, ``last``), checked before anything runs."""
        ...

    def preflight_goal(self, goal_id: str, *, resuming: bool = False) -> list[str]:
        """Refuse (``ConfigError``) a goal that could never run where this engine runs it; return warnings."""
        ...

    def describe(self) -> str:
        """Where the work runs, for messages (``this process``, ``temporal (task queue q)``)."""
        ...
