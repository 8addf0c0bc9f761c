"""GOAP planning: compile a spec to a bitset task, search, explain failures."""

from .planner import compile_spec, plan
from .result import Blocker, PlanResult, SearchLimits, Setter, UnreachableFact
from .search import SEARCHES, get_search, register_search
from .task import GroundAction, Operator, Task

__all__ = [
    "SEARCHES",
    "Blocker",
    "GroundAction",
    "Operator",
    "PlanResult",
    "SearchLimits",
    "Setter",
    "Task",
    "UnreachableFact",
    "compile_spec",
    "get_search",
    "plan",
    "register_search",
]
