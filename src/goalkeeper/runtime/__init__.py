"""The GOAP runtime: observers, executors, the tick decision, the driver."""

from .decide import Escalate, Execute, Reached, decide, goal_holds, judge
from .driver import RunOptions, resume_run, start_run
from .observers import (
    OBSERVERS,
    Observation,
    ObserveContext,
    observe_all,
    observe_fact,
    register_observer,
)
from .state import RunState, RunStore

__all__ = [
    "OBSERVERS",
    "Escalate",
    "Execute",
    "Observation",
    "ObserveContext",
    "Reached",
    "RunOptions",
    "RunState",
    "RunStore",
    "decide",
    "goal_holds",
    "judge",
    "observe_all",
    "observe_fact",
    "register_observer",
    "resume_run",
    "start_run",
]
