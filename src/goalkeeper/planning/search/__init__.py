"""Search algorithms, one per module, behind one registry.

A search is a callable ``(task, init, *, exclude, limits, heuristic) -> SearchOutcome``
where ``init`` is a state bitset and ``exclude`` a set of operator indices to skip.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Protocol, TypeVar

from ..result import SearchLimits, SearchOutcome
from ..task import Task

__all__ = ["SEARCHES", "SearchFn", "get_search", "register_search"]


class SearchFn(Protocol):
    def __call__(
        self,
        task: Task,
        init: int,
        *,
        exclude: frozenset[int] = ...,
        limits: SearchLimits = ...,
        heuristic: str | None = ...,
    ) -> SearchOutcome: ...


SEARCHES: dict[str, SearchFn] = {}
F = TypeVar("F", bound=SearchFn)


def register_search(name: str) -> Callable[[F], F]:
    """Register a search under ``name``; the function keeps its own signature (extra
    keywords such as ``core`` stay visible to the type checker)."""

    def deco(fn: F) -> F:
        SEARCHES[name] = fn
        return fn

    return deco


def get_search(name: str) -> SearchFn:
    fn = SEARCHES.get(name)
    if fn is not None:
        return fn
    module = _BUILTIN.get(name)
    if module is not None:  # import only the search asked for: plan() pays for one
        import_module(f"{__name__}.{module}")
    else:
        _load_builtins()
    try:
        return SEARCHES[name]
    except KeyError:
        known = ", ".join(sorted(SEARCHES))
        from ...errors import PlanningError

        raise PlanningError(f"unknown search {name!r}; choose one of: {known}") from None


# Built-in searches register through the same hook as third-party ones, on first use.
_BUILTIN = {"astar": "astar", "greedy": "greedy", "regression": "regression"}


def _load_builtins() -> None:
    for module in _BUILTIN.values():
        import_module(f"{__name__}.{module}")
