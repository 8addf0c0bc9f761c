"""Pick A*'s heuristic per task: the blind/LM-cut race, which learns from the task.

There used to be a size rule here ("40 operators or fewer: blind search"); it sent a
tpp task with 30 operators and a deep plan to blind search, 30x slower than LM-cut.
The race gives blind search a head start instead, so small tasks still end before
LM-cut is set up, and larger ones get whichever search is winning.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..task import Operator, Task

__all__ = ["choose_heuristic"]


def choose_heuristic(task: Task, init: int, ops: Sequence[Operator]) -> str:
    """The default optimal search: the race (see ``race``)."""
    return "race"
