"""The oracle: a separate, read-only judge of whether the goal is met.

An oracle gets the facts (our own condition results, the maker's summary) and
returns ``{converged, conditionResults, reasons, nextHint, confidence}``. The
loop enforces the rest: a verdict of "converged" counts only if every
condition passed, and the tree must be byte-identical before and after judging.
The built-in deterministic oracle is registered like any LLM oracle will be.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigError
from .goal import ConditionResult, OracleConfig

__all__ = [
    "ORACLES",
    "DeterministicOracle",
    "Oracle",
    "OracleRequest",
    "OracleVerdict",
    "get_oracle",
    "register_oracle",
]


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


def _first_lines(text: str, n: int = 12) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


class DeterministicOracle:
    """Converges exactly when every condition passed; hints quote the failures."""

    name = "deterministic"

    def judge(self, request: OracleRequest) -> OracleVerdict:
        failing = [c for c in request.condition_results if not c.passed]
        if not request.condition_results:
            return OracleVerdict(False, ["no condition results to judge"], None, 0.0)
        if not failing:
            reasons = [f"{c.type} `{c.command}`: {c.summary}" for c in request.condition_results]
            return OracleVerdict(True, reasons, None, 1.0, list(request.condition_results))
        reasons = [f"{c.type} `{c.command}` failed: {c.summary}" for c in failing]
        hint_parts = [f"Still failing ({len(failing)} of {len(request.condition_results)} conditions):"]
        for c in failing:
            if c.failures:
                hint_parts.append(f"- `{c.command}`: {c.summary}")
                hint_parts += [_where(f) for f in c.failures[:8]]
            else:
                hint_parts.append(f"- `{c.command}`: {c.summary}\n{_first_lines(c.output_tail)}")
        return OracleVerdict(False, reasons, "\n".join(hint_parts), 1.0, list(request.condition_results))


def _changed(n: object) -> str:
    if n is None:
        return ""
    return " (unchanged since the goal started)" if n == 0 else f" (last changed in iteration {n})"


def _where(failure: dict[str, Any]) -> str:
    """One failing test: where it failed, and the lines it ran through, with who changed them last."""
    frames = [f for f in failure.get("frames", []) if isinstance(f, dict)]
    text = f"  - {failure.get('test')}: {failure.get('message') or 'failed'}"
    if frames:
        crash = frames[-1]
        text += f"\n    fails at {crash.get('path')}:{crash.get('line')} in {crash.get('func')}"
        text += _changed(crash.get("changedIn"))
        passed = [f for f in frames[:-1]]
        if passed:
            text += "\n    through " + ", ".join(
                f"{f.get('path')}:{f.get('line')} {f.get('func')}{_changed(f.get('changedIn'))}" for f in passed[-4:])
    return text


OracleFactory = Callable[[OracleConfig], Oracle]
ORACLES: dict[str, OracleFactory] = {}


def register_oracle(model: str, factory: OracleFactory) -> None:
    """Make ``oracle.model == model`` resolve to ``factory(config)``."""
    ORACLES[model] = factory


def get_oracle(config: OracleConfig) -> Oracle:
    factory = ORACLES.get(config.model)
    if factory is None and ":" in config.model:
        from ..adapters import agents  # noqa: F401 - registers "agent:"
        from . import llm_oracle  # noqa: F401 - registers "openai:", "anthropic:"

        factory = ORACLES.get(config.model.split(":", 1)[0] + ":")
    if factory is None:
        known = ", ".join(sorted(ORACLES))
        raise ConfigError(
            f"oracle.model {config.model!r} is not available (known: {known}); "
            "LLM oracles register themselves with goalkeeper.convergence.register_oracle"
        )
    return factory(config)


register_oracle("deterministic", lambda _cfg: DeterministicOracle())
