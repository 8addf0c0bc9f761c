"""The oracle: a separate, read-only judge of whether the goal is met.

An oracle gets the facts (our own condition results, the maker's summary) and
returns ``{converged, conditionResults, reasons, nextHint, confidence}``. The
loop enforces the rest: a verdict of "converged" counts only if every
condition passed, and the tree must be byte-identical before and after judging.
The built-in deterministic oracle is registered like any LLM oracle will be.
"""

from __future__ import annotations

from typing import Any

# The contract and the registry live in .contracts (below the adapters that implement them).
from .contracts import ORACLES, Oracle, OracleRequest, OracleVerdict, get_oracle, register_oracle

__all__ = [
    "ORACLES",
    "DeterministicOracle",
    "Oracle",
    "OracleRequest",
    "OracleVerdict",
    "get_oracle",
    "register_oracle",
]


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


register_oracle("deterministic", lambda _cfg: DeterministicOracle())
