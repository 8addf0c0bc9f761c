"""Lint: anti-patterns that make a spec fragile or pointless, with a fix for each.

Warnings do not stop a run; errors do (``require_runnable``). Every lint is a
pure function ``Spec -> list[SpecIssue]`` in the ``LINTS`` registry, so a
project can add its own with ``register_lint``.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import SpecError, SpecIssue
from .conditions import Condition, format_value
from .loader import attach_lines
from .spec import ActionDef, Spec

__all__ = ["LINTS", "lint", "register_lint", "require_runnable"]

LintFn = Callable[[Spec], list[SpecIssue]]
LINTS: dict[str, LintFn] = {}

_OBSERVER_VERBS = ("observe", "check", "measure", "probe", "inspect", "scan", "refresh", "read")


def register_lint(name: str) -> Callable[[LintFn], LintFn]:
    def deco(fn: LintFn) -> LintFn:
        LINTS[name] = fn
        return fn

    return deco


def _warn(path: str, msg: str, code: str) -> SpecIssue:
    return SpecIssue(path, msg, severity="warning", code=code)


def _error(path: str, msg: str, code: str) -> SpecIssue:
    return SpecIssue(path, msg, severity="error", code=code)


@register_lint("no-observer")
def _no_observer(spec: Spec) -> list[SpecIssue]:
    # An error, as for `run` and `build`: validate accepts exactly what run accepts.
    return [
        _error(
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


@register_lint("two-observers")
def _two_observers(spec: Spec) -> list[SpecIssue]:
    """Two facts read through the same observer are one fact under two names."""
    seen: dict[str, str] = {}
    out = []
    for name, f in spec.facts.items():
        if f.observe is None:
            continue
        key = json.dumps(f.observe.model_dump(exclude_none=True), sort_keys=True)
        if key in seen:
            out.append(_warn(
                f"facts.{name}.observe",
                f"same observer as fact {seen[key]}: one observation has two names, which can "
                f"only disagree by mistake; keep {seen[key]} and drop {name}, or give {name} "
                "its own observer",
                "two-observers",
            ))
        else:
            seen[key] = name
    return out


def _prose(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    words = value.split()
    return len(words) >= 4 or (len(words) >= 2 and value.rstrip()[-1:] in ".!?")


@register_lint("prose-goal")
def _prose_goal(spec: Spec) -> list[SpecIssue]:
    """A goal is an observed value, not a wish; a diagnostic fact is not observed each tick."""
    out = []
    for c in spec.goal_conditions:
        fact = spec.facts[c.fact]
        values = c.value if c.op == "in" else (c.value,)
        if any(_prose(v) for v in values):
            out.append(_warn(
                f"goal.{c.fact}",
                "the goal value reads like prose, which no observer prints; make the goal an "
                f"observable fact, e.g. a bool `{c.fact}_ok: true` observed by a command that "
                "exits 0 when it holds",
                "prose-goal",
            ))
        if fact.diagnostic:
            out.append(_warn(
                f"goal.{c.fact}",
                "the goal uses a diagnostic fact, which is observed only when replanning: the "
                "agent could declare the goal reached on a belief; drop `diagnostic: true`",
                "diagnostic-goal",
            ))
    return out


def _argv_key(cmd: str | list[str] | None) -> Any:
    return tuple(cmd) if isinstance(cmd, list) else cmd


def _is_observer_like(name: str, a: ActionDef, observer_cmds: set[Any]) -> bool:
    if name.lower().startswith(_OBSERVER_VERBS):
        return True
    return a.run is not None and _argv_key(a.run) in observer_cmds


@register_lint("no-precondition")
def _no_precondition(spec: Spec) -> list[SpecIssue]:
    out = []
    observer_cmds = {_argv_key(f.observe.command) for f in spec.facts.values()
                     if f.observe is not None and f.observe.command is not None}
    for name, a in spec.actions.items():
        if a.pre or _is_observer_like(name, a, observer_cmds):
            continue
        guard = {f: not v for f, v in a.effect_values if isinstance(v, bool)}
        hint = (f"e.g. pre: {{{', '.join(f'{f}: {format_value(v)}' for f, v in guard.items())}}}"
                if guard else "the state it must start from")
        out.append(_warn(
            f"actions.{name}.pre",
            "action has no preconditions, so the planner may run it in any state; add the facts "
            f"it needs ({hint})",
            "no-precondition",
        ))
    return out


class _Effects:
    """Which actions set which value of which fact, so a lint never scans every action pair.

    ``enablers`` yields the actions whose effects satisfy a condition: by direct lookup for
    ``==`` and ``in``, by bisection over the sorted values for ranges. Linear in the spec.
    """

    def __init__(self, spec: Spec) -> None:
        self.by_fact: dict[str, dict[Any, list[str]]] = {}
        for name, a in spec.actions.items():
            for f, v in a.effect_values:
                self.by_fact.setdefault(f, {}).setdefault(v, []).append(name)
        self._sorted: dict[str, list[Any]] = {}

    def _values(self, c: Condition) -> Iterator[Any]:
        index = self.by_fact.get(c.fact, {})
        if c.op == "==":
            if c.value in index:
                yield c.value
        elif c.op == "in":
            if len(c.value) < len(index):
                yield from (v for v in dict.fromkeys(c.value) if v in index)
            else:
                yield from (v for v in index if c.holds(v))
        elif c.op == "!=":
            yield from (v for v in index if c.holds(v))
        else:  # a range on a number fact: the matching values are one slice of the sorted ones
            vals = self._sorted.get(c.fact)
            if vals is None:
                vals = self._sorted[c.fact] = sorted(v for v in index if not isinstance(v, bool | str))
            if c.op in ("<", "<="):
                cut = (bisect.bisect_left if c.op == "<" else bisect.bisect_right)(vals, c.value)
                yield from vals[:cut]
            else:
                cut = (bisect.bisect_right if c.op == ">" else bisect.bisect_left)(vals, c.value)
                yield from vals[cut:]

    def enablers(self, c: Condition, skip: str | None = None) -> Iterator[str]:
        index = self.by_fact.get(c.fact, {})
        for v in self._values(c):
            if c.holds(v):
                yield from (n for n in index[v] if n != skip)


def _effects(spec: Spec) -> _Effects:
    idx = spec._cache.get("effects-index")
    if not isinstance(idx, _Effects):
        idx = spec._cache["effects-index"] = _Effects(spec)
    return idx


def _setters(spec: Spec, c: Condition) -> list[str]:
    return list(dict.fromkeys(_effects(spec).enablers(c)))


@register_lint("unreachable-goal")
def _unreachable_goal(spec: Spec) -> list[SpecIssue]:
    out = []
    for c in spec.goal_conditions:
        fact = spec.facts[c.fact]
        if _setters(spec, c) or c.holds(fact.initial) and fact.observe is not None:
            continue
        if fact.observe is None:
            out.append(_error(
                f"goal.{c.fact}",
                f"unreachable: no action sets {c} and the fact is not observed; add an action "
                f"with `effects: {{{c.fact}: ...}}` or an observer for {c.fact}",
                "unreachable-goal",
            ))
        else:
            out.append(_warn(
                f"goal.{c.fact}",
                f"no action sets {c}: the goal holds only if the world makes it true by itself, "
                f"and the agent escalates otherwise; add an action whose effects set {c.fact}",
                "unreachable-goal",
            ))
    return out


def _pins(a: ActionDef, fact: str, value: Any, ftype: str) -> bool:
    """Do the action's own preconditions already force ``fact`` to ``value``?"""
    conds = [c for c in a.pre_conditions if c.fact == fact]
    if ftype == "bool":
        candidates: set[Any] = {True, False}
    else:
        candidates = {x for c in conds if c.op == "in" for x in c.value}
        candidates |= {c.value for c in conds if c.op == "=="}
        if not candidates:
            return False  # an open range (e.g. < 5) never pins one value
    return bool(conds) and {x for x in candidates | {value} if all(c.holds(x) for c in conds)} == {value}


@register_lint("no-op")
def _no_op(spec: Spec) -> list[SpecIssue]:
    out = []
    for name, a in spec.actions.items():
        if not a.effect_values:
            out.append(_warn(f"actions.{name}.effects", "action has no effects, so no plan ever "
                             "uses it; add the facts it changes", "no-op"))
        elif all(_pins(a, f, v, spec.facts[f].type) for f, v in a.effect_values):
            out.append(_warn(
                f"actions.{name}.effects",
                "every effect only restates a precondition, so the action changes nothing the "
                "planner can see (a no-op); make the precondition the opposite value, or drop it",
                "no-op",
            ))
    return out


@register_lint("duplicate-action")
def _duplicate_action(spec: Spec) -> list[SpecIssue]:
    seen: dict[Any, str] = {}
    out = []
    for name, a in spec.actions.items():
        key = (frozenset(a.pre_conditions), frozenset(a.effect_values))
        if key in seen:
            out.append(_warn(
                f"actions.{name}",
                f"same preconditions and effects as {seen[key]}; the planner only ever picks the "
                f"cheaper one, so merge them or make their preconditions differ",
                "duplicate-action",
            ))
        else:
            seen[key] = name
    return out


@register_lint("script-as-plan")
def _script_as_plan(spec: Spec) -> list[SpecIssue]:
    """A single chain of actions needs no planner: the plan is always the same list."""
    names = list(spec.actions)
    if len(names) < 2:
        return []
    index = _effects(spec)
    pred: dict[str, str] = {}
    succ: dict[str, str] = {}
    for b, act in spec.actions.items():
        found: set[str] = set()
        for c in act.pre_conditions:
            for a in index.enablers(c, skip=b):
                found.add(a)
                if len(found) > 1:
                    return []  # two possible predecessors: not a chain
        if found:
            (a,) = found
            if succ.setdefault(a, b) != b:
                return []  # two possible successors
            pred[b] = a
    roots = [n for n in names if n not in pred]
    if len(roots) != 1:
        return []
    order = [roots[0]]
    while order[-1] in succ and len(order) <= len(names):
        order.append(succ[order[-1]])
    if len(order) != len(names):
        return []
    return [_warn(
        "actions",
        "script-as-plan: every action has exactly one possible predecessor, so every plan is "
        f"the same sequence ({' → '.join(order)}); a checklist is cheaper — write it as a "
        "script, or add the alternative actions that make planning worth it",
        "script-as-plan",
    )]


def lint(spec: Spec) -> list[SpecIssue]:
    issues: list[SpecIssue] = []
    for fn in LINTS.values():
        issues.extend(fn(spec))
    return attach_lines(spec, issues)


def require_runnable(spec: Spec) -> None:
    """Refuse a spec that cannot run: lint errors (facts without an observer among them)."""
    issues = [i for i in lint(spec) if i.severity == "error"]
    if issues:
        errors = [
            SpecIssue(i.path, i.message, i.line, "error", i.code) for i in issues
        ]
        raise SpecError(errors, spec._cache.get("source"))

