"""goalkeeper: goal-driven autonomous agents that do not lie about being done.

The public API: ``plan`` (GOAP planning), ``run`` (a GOAP run to its goal),
``converge`` (a maker iterates until our own checks and an oracle agree), the
typed results they return, the engine contract and the error tree. See
docs/api.md. Everything else is reachable through the subpackages but may move.
"""

from __future__ import annotations

__version__ = "0.1.0"

from . import adapters as _adapters  # noqa: F401 - registers the built-in makers and oracles (see adapters)
from .api import converge, run
from .convergence.goal import Budget, Goal, Iteration, MakerSpec, StoppingCondition
from .engines import Engine, make_engine
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
from .runtime.state import RunState

__all__ = [
    "Budget",
    "BudgetExceeded",
    "Condition",
    "ConfigError",
    "Engine",
    "Goal",
    "GoalkeeperError",
    "Iteration",
    "MakerSpec",
    "PlanResult",
    "PlanningError",
    "RunState",
    "SearchLimits",
    "Spec",
    "SpecError",
    "StateError",
    "StoppingCondition",
    "__version__",
    "converge",
    "load_spec",
    "make_engine",
    "plan",
    "run",
    "spec_from_data",
]
