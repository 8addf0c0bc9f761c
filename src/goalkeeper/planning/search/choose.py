"""Pick A*'s heuristic per task from cheap features (see benchmarks/RESULTS.md)."""

from __future__ import annotations

from collections.abc import Sequence

from ..task import Operator, Task

__all__ = ["choose_heuristic"]


def choose_heuristic(task: Task, init: int, ops: Sequence[Operator]) -> str:
    """Blind search for small tasks (GOAP specs), else a blind-vs-LM-cut race."""
    if len(ops) <= 40:
        return "blind"
    return "race"
