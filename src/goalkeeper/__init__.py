"""goalkeeper: goal-driven autonomous agents that do not lie about being done."""

from __future__ import annotations

__version__ = "0.1.0"

from . import adapters as _adapters  # noqa: F401 - registers the built-in makers and oracles (see adapters)
from .errors import (
    BudgetExceeded,
    ConfigError,
    GoalkeeperError,
    PlanningError,
    SpecError,
    StateError,
)
from .model import Condition, Spec, load_spec, spec_from_data
from .planning import PlanResult, SearchLimits, plan

__all__ = [
    "BudgetExceeded",
    "Condition",
    "ConfigError",
    "GoalkeeperError",
    "PlanResult",
    "PlanningError",
    "SearchLimits",
    "Spec",
    "SpecError",
    "StateError",
    "__version__",
    "load_spec",
    "plan",
    "spec_from_data",
]
