"""The maker and oracle contracts: what the loop asks, what it gets back, and the two registries.

The loop (``convergence``) and both engines speak only these types. Whoever
makes or judges implements them elsewhere: the command and host makers and the
coding-agent CLIs in ``goalkeeper.adapters``, the deterministic oracle in
``convergence.oracle``, the LLM oracles in ``convergence.llm_oracle``. Adapters
sit above this package, so they register themselves here (importing
``goalkeeper`` does that for the built-in ones) and the loop never imports them:
the dependency points one way and import-linter checks it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import ConfigError

if TYPE_CHECKING:
    from .goal import ConditionResult, MakerSpec, OracleConfig

__all__ = [
    "MAKERS",
    "ORACLES",
    "maker_types",
    "Maker",
    "MakerFactory",
    "MakerRequest",
    "MakerResult",
    "Oracle",
    "OracleFactory",
    "OracleRequest",
    "OracleVerdict",
    "get_maker",
    "get_oracle",
    "register_maker",
    "register_oracle",
]


# -- makers ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MakerRequest:
    goal_id: str
    objective: str
    hint: str | None
    iteration: int
    workspace: Path
    timeout: float | None = None


@dataclass(frozen=True, slots=True)
class MakerResult:
    summary: str
    cost_dollars: float = 0.0
    exit_code: int | None = 0
    timed_out: bool = False
    output_tail: str = ""
    cost_known: bool = True
    spawn_error: str | None = None  # the maker could not even start (not found, not executable)


class Maker(Protocol):
    name: str

    def make(self, request: MakerRequest) -> MakerResult: ...


MakerFactory = Callable[["MakerSpec"], Maker]
MAKERS: dict[str, MakerFactory] = {}


def register_maker(name: str, factory: MakerFactory) -> None:
    """Make ``maker.type == name`` resolve to ``factory(spec)``; coding-agent CLIs plug in here."""
    MAKERS[name] = factory


def _builtins() -> None:
    """The built-in makers and oracles register when goalkeeper.adapters is imported; loaded
    here on first lookup, so importing goalkeeper costs nothing until a goal needs one."""
    import importlib

    importlib.import_module("goalkeeper.adapters")


def maker_types() -> list[str]:
    """Every registered maker type, the built-in ones included."""
    _builtins()
    return sorted(MAKERS)


def get_maker(spec: MakerSpec) -> Maker:
    if spec.type not in MAKERS:
        _builtins()
    factory = MAKERS.get(spec.type)
    if factory is None:
        known = ", ".join(sorted(MAKERS)) or "none"
        raise ConfigError(
            f"maker type {spec.type!r} is not registered (known: {known}); the built-in makers register "
            "when `goalkeeper` is imported, others with goalkeeper.convergence.register_maker(name, factory)"
        )
    return factory(spec)


# -- oracles --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OracleRequest:
    goal_id: str
    objective: str
    iteration: int
    workspace: Path
    condition_results: tuple[ConditionResult, ...]
    maker_summary: str | None = None
    prompt: str | None = None
    history: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class OracleVerdict:
    converged: bool
    reasons: list[str] = field(default_factory=list)
    next_hint: str | None = None
    confidence: float = 1.0
    condition_results: list[ConditionResult] = field(default_factory=list)
    cost_dollars: float = 0.0
    cost_known: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "converged": self.converged,
            "conditionResults": [c.dump() for c in self.condition_results],
            "reasons": list(self.reasons),
            "nextHint": self.next_hint,
            "confidence": self.confidence,
        }


class Oracle(Protocol):
    """A judge. It must not write to the workspace (the loop checks that it did not)."""

    name: str

    def judge(self, request: OracleRequest) -> OracleVerdict: ...


OracleFactory = Callable[["OracleConfig"], Oracle]
ORACLES: dict[str, OracleFactory] = {}


def register_oracle(model: str, factory: OracleFactory) -> None:
    """Make ``oracle.model == model`` resolve to ``factory(config)``; ``"prefix:"`` matches ``prefix:ANY``."""
    ORACLES[model] = factory


def get_oracle(config: OracleConfig) -> Oracle:
    if config.model not in ORACLES:
        _builtins()
    factory = ORACLES.get(config.model)
    if factory is None and ":" in config.model:
        from . import llm_oracle  # noqa: F401 - registers "openai:", "anthropic:" (same layer)

        factory = ORACLES.get(config.model.split(":", 1)[0] + ":")
    if factory is None:
        known = ", ".join(sorted(ORACLES))
        raise ConfigError(
            f"oracle.model {config.model!r} is not available (known: {known}); "
            "oracles register themselves with goalkeeper.convergence.register_oracle "
            "(agent:CLI oracles when `goalkeeper` is imported)"
        )
    return factory(config)
