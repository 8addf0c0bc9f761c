"""State heuristics for forward search, one family per module, behind one registry.

A heuristic factory takes the task and the operators the search may use (excluded
and irrelevant ones already removed) and returns a :class:`Heuristic`: a callable
state -> estimated cost to the goal, ``INF`` for a proven dead end. Factories do the
per-task compilation once, so per-state evaluation is all array work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module

from ..task import Operator, Task

__all__ = [
    "HEURISTICS",
    "INF",
    "Heuristic",
    "HeuristicFactory",
    "get_heuristic",
    "heuristic_names",
    "register_heuristic",
]

INF = float("inf")


@dataclass(frozen=True, slots=True)
class Heuristic:
    """An evaluator plus the facts searches need to use it well.

    ``admissible`` tells optimal searches they may use it; ``expensive`` asks A* to
    evaluate lazily (only states it pops). ``preferred``, when set, returns the value
    and the operator indices a relaxed plan starts with (for greedy search).
    """

    name: str
    fn: Callable[[int], float]
    admissible: bool
    expensive: bool = False
    preferred: Callable[[int], tuple[float, list[int]]] | None = None

    def __call__(self, state: int) -> float:
        return self.fn(state)


HeuristicFactory = Callable[[Task, Sequence[Operator]], Heuristic]

HEURISTICS: dict[str, HeuristicFactory] = {}


def register_heuristic(name: str) -> Callable[[HeuristicFactory], HeuristicFactory]:
    def deco(fn: HeuristicFactory) -> HeuristicFactory:
        HEURISTICS[name] = fn
        return fn

    return deco


def get_heuristic(name: str) -> HeuristicFactory:
    fn = HEURISTICS.get(name)
    if fn is not None:
        return fn
    module = _BUILTIN.get(name)
    if module is not None:  # import only the family asked for
        import_module(f"{__name__}.{module}")
    else:
        _load_builtins()
    try:
        return HEURISTICS[name]
    except KeyError:
        from ...errors import PlanningError

        known = ", ".join(sorted(HEURISTICS))
        raise PlanningError(f"unknown heuristic {name!r}; choose one of: {known}") from None


def heuristic_names() -> list[str]:
    _load_builtins()
    return sorted(HEURISTICS)


_BUILTIN = {"blind": "blind", "hmax": "hmax", "lmcut": "lmcut", "hadd": "additive",
            "ff": "additive"}


def _load_builtins() -> None:
    for module in set(_BUILTIN.values()):
        import_module(f"{__name__}.{module}")
