"""The GOAP runtime: the tick machine, observers, the local driver, run state on disk.

``machine.RunMachine`` decides every step (sans-I/O); ``driver`` carries its
instructions out in this process, the Temporal engine in a workflow, and the
standalone runner (``goalkeeper build --target code``) in one stdlib-only file.
"""

from .decide import SpecModel, goal_holds
from .driver import RunOptions, resume_run, start_run
from .ledger import Ledger, apply, replay
from .machine import (
    Act,
    Acted,
    Commit,
    Confirm,
    Done,
    Escalate,
    Filed,
    Instruction,
    Observe,
    Observed,
    Options,
    Propose,
    Proposed,
    Resume,
    RunMachine,
)
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
    "Act",
    "Acted",
    "Commit",
    "Confirm",
    "Done",
    "Escalate",
    "Filed",
    "Instruction",
    "Ledger",
    "Observation",
    "ObserveContext",
    "Observe",
    "Observed",
    "Options",
    "Propose",
    "Proposed",
    "Resume",
    "RunMachine",
    "RunOptions",
    "RunState",
    "RunStore",
    "SpecModel",
    "apply",
    "goal_holds",
    "observe_all",
    "observe_fact",
    "register_observer",
    "replay",
    "resume_run",
    "start_run",
]
