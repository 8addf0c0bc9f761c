"""The local engine: the drivers in this process, state under the state home."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .base import Engine, EventSink

if TYPE_CHECKING:
    from ..convergence.goal import Goal
    from ..runtime.driver import RunOptions
    from ..runtime.state import RunState

__all__ = ["LocalEngine"]


@dataclass
class LocalEngine:
    name: str = "local"
    root: Path | None = None

    def start_run(self, spec_path: str | Path, options: RunOptions, *, wait: bool = True) -> RunState:
        from ..runtime.driver import start_run

        return start_run(spec_path, options)

    def resume_run(self, run_id: str, options: RunOptions, spec_path: str | Path | None = None) -> RunState:
        from ..runtime.driver import resume_run

        return resume_run(run_id, options, spec_path)

    def run_goal(self, goal_id: str, *, on_event: EventSink | None = None, wait: bool = True) -> Goal:
        from ..convergence.loop import run_goal

        if not wait:
            from ..errors import ConfigError

            raise ConfigError("the local engine runs a goal in this process; to start it and return, "
                              "use --engine temporal (with `goalkeeper worker` running)")
        return run_goal(goal_id, root=self.root, on_event=on_event)

    def pause_goal(self, goal_id: str) -> str:
        from ..convergence.lifecycle import pause_goal

        return pause_goal(goal_id, self.root)

    def resume_goal(self, goal_id: str, *, max_iterations: int | None = None, max_dollars: float | None = None,
                    max_duration: str | None = None, run: bool = True, on_event: EventSink | None = None) -> Goal:
        from ..convergence.lifecycle import resume_goal

        goal = resume_goal(goal_id, max_iterations=max_iterations, max_dollars=max_dollars,
                           max_duration=max_duration, root=self.root)
        return self.run_goal(goal_id, on_event=on_event) if run else goal

    def abandon_goal(self, goal_id: str) -> str:
        from ..convergence.lifecycle import abandon_goal

        return abandon_goal(goal_id, self.root)

    def fetch_goal(self, goal_id: str) -> Goal:
        from ..convergence.persist import audited_goal

        return audited_goal(goal_id, self.root)[0]

    def list_goals(self, broken: list[tuple[str, str]] | None = None) -> list[Goal]:
        from ..convergence.persist import list_goals

        return list_goals(self.root, broken)

    def preflight_goal(self, goal_id: str, *, resuming: bool = False) -> list[str]:
        # The maker and checks run on this machine: what is missing here (a tool uninstalled since
        # `goal new`) would waste a paid iteration, so it is refused before one starts.
        from ..convergence.preflight import refuse_unrunnable_goal_id

        what = "goal resume refused" if resuming else "goal run refused"
        return [w.text() for w in refuse_unrunnable_goal_id(goal_id, what, resuming=resuming, root=self.root).warnings]

    def describe(self) -> str:
        return "this process"

    def resolve_goal_id(self, text: str) -> str:
        from ..store.ids import resolve_id

        return resolve_id("goal", text, self.root)


_check: type[Engine] = LocalEngine  # mypy: the local engine fulfils the contract
