"""The Temporal engine behind the :class:`~goalkeeper.engines.base.Engine` contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base import Engine, EventSink
from .config import TemporalConfig

if TYPE_CHECKING:
    from ...convergence.goal import Goal
    from ...runtime.driver import RunOptions
    from ...runtime.state import RunState

__all__ = ["TemporalEngine"]


@dataclass
class TemporalEngine:
    cfg: TemporalConfig
    root: Path | None = None
    name: str = field(default="temporal")

    def start_run(self, spec_path: str | Path, options: RunOptions, *, wait: bool = True) -> RunState:
        from ...errors import ConfigError
        from .runs import start_run

        if options.proposer is not None:
            raise ConfigError("--runtime hybrid runs with the local engine only (the proposer's model calls "
                              "are not activities yet); drop --engine temporal")

        return start_run(spec_path, self.cfg, max_ticks=options.max_ticks, search=options.search, yes=options.yes,
                         root=self.root or options.root, reporter=options.reporter, wait=wait,
                         env=options.env, max_dollars=options.max_dollars)

    def resume_run(self, run_id: str, options: RunOptions, spec_path: str | Path | None = None) -> RunState:
        from ...errors import ConfigError

        raise ConfigError("run --resume works with the local engine only; a Temporal run resumes by itself "
                          "on any worker after a crash")

    def run_goal(self, goal_id: str, *, on_event: EventSink | None = None, wait: bool = True) -> Goal:
        from . import run_goal

        return run_goal(goal_id, self.cfg, root=self.root, wait=wait, on_event=on_event)

    def pause_goal(self, goal_id: str) -> str:
        from . import pause_goal

        return pause_goal(goal_id, self.cfg, root=self.root)

    def resume_goal(self, goal_id: str, *, max_iterations: int | None = None, max_dollars: float | None = None,
                    max_duration: str | None = None, run: bool = True, on_event: EventSink | None = None) -> Goal:
        from . import resume_goal

        raise_budget: dict[str, Any] = {"max_iterations": max_iterations, "max_dollars": max_dollars,
                                        "max_duration": max_duration}
        return resume_goal(goal_id, self.cfg, root=self.root, wait=run, on_event=on_event, **raise_budget)

    def abandon_goal(self, goal_id: str) -> str:
        from . import abandon_goal

        return abandon_goal(goal_id, self.cfg, root=self.root)

    def fetch_goal(self, goal_id: str) -> Goal:
        from . import fetch_goal

        return fetch_goal(goal_id, self.cfg, root=self.root)

    def list_goals(self, broken: list[tuple[str, str]] | None = None) -> list[Goal]:
        from . import list_goals

        return list_goals(self.cfg, root=self.root)

    def preflight_goal(self, goal_id: str, *, resuming: bool = False) -> list[str]:
        return []  # the workers run makers and checks on their machines; each checks there

    def describe(self) -> str:
        return f"{self.name} (task queue {self.cfg.task_queue})"

    def resolve_goal_id(self, text: str) -> str:
        """A prefix or ``last`` is looked up in the shared store; the cluster may hold goals it does not
        know, so a well-formed full id passes as is."""
        from ...errors import NotFoundError
        from ...store.ids import check_id, resolve_id

        try:
            return resolve_id("goal", text, self.root)
        except NotFoundError:
            return check_id("goal", text)


_check: type[Engine] = TemporalEngine
