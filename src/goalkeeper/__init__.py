"""goalkeeper: goal-driven autonomous agents that do not lie about being done.

The public API: ``plan`` (GOAP planning), ``run`` (a GOAP run to its goal),
``converge`` (a maker iterates until our own checks and an oracle agree), the
typed results they return, the engine contract and the error tree. See
docs/api.md. Everything else is reachable through the subpackages but may move.
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

from .errors import (
    BudgetExceeded,
    ConfigError,
    GoalkeeperError,
    PlanningError,
    SpecError,
    StateError,
)

if TYPE_CHECKING:
    from .api import converge, run
    from .convergence.goal import Budget, Goal, Iteration, MakerSpec, StoppingCondition
    from .engines import Engine, make_engine
    from .model import Condition, Spec, load_spec, spec_from_data
    from .planning import PlanResult, SearchLimits, plan
    from .runtime.state import RunState

# Imported on first use: `import goalkeeper` (and so every `python -m goalkeeper ...` and every
# submodule import) stays cheap; the CLI and the hooks start in tens of milliseconds.
_LAZY = {
    "converge": "api", "run": "api",
    "Budget": "convergence.goal", "Goal": "convergence.goal", "Iteration": "convergence.goal",
    "MakerSpec": "convergence.goal", "StoppingCondition": "convergence.goal",
    "Engine": "engines", "make_engine": "engines",
    "Condition": "model", "Spec": "model", "load_spec": "model", "spec_from_data": "model",
    "PlanResult": "planning", "SearchLimits": "planning", "plan": "planning",
    "RunState": "runtime.state",
}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'goalkeeper' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value


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
