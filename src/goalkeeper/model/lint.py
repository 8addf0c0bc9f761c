"""Lint: anti-patterns that make a spec fragile or pointless, with a fix for each.

Warnings do not stop a run; errors do (``require_runnable``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import SpecError, SpecIssue
from .loader import attach_lines
from .spec import Spec

__all__ = ["LINTS", "lint", "require_runnable"]

LintFn = Callable[[Spec], list[SpecIssue]]
LINTS: dict[str, LintFn] = {}


def register_lint(name: str) -> Callable[[LintFn], LintFn]:
    def deco(fn: LintFn) -> LintFn:
        LINTS[name] = fn
        return fn

    return deco


def _warn(path: str, msg: str, code: str) -> SpecIssue:
    return SpecIssue(path, msg, severity="warning", code=code)


@register_lint("no-observer")
def _no_observer(spec: Spec) -> list[SpecIssue]:
    return [
        _warn(
            f"facts.{name}",
            "fact has no observer; add `observe:` (command, file, http or python) — "
            "`run` and `build` refuse a fact they cannot observe",
            "no-observer",
        )
        for name, f in spec.facts.items()
        if f.observe is None
    ]


@register_lint("unbounded-loop")
def _unbounded(spec: Spec) -> list[SpecIssue]:
    if spec.policy.max_ticks is None:
        return [_warn("policy.max_ticks", "no tick cap: a stuck agent would loop forever; set max_ticks (e.g. 25)", "unbounded-loop")]
    return []


def lint(spec: Spec) -> list[SpecIssue]:
    issues: list[SpecIssue] = []
    for fn in LINTS.values():
        issues.extend(fn(spec))
    return attach_lines(spec, issues)


def require_runnable(spec: Spec) -> None:
    """Refuse a spec that cannot run: lint errors, or facts without an observer."""
    issues = [i for i in lint(spec) if i.severity == "error" or i.code == "no-observer"]
    if issues:
        errors = [
            SpecIssue(i.path, i.message, i.line, "error", i.code) for i in issues
        ]
        raise SpecError(errors, spec._cache.get("source"))
