"""Plan for a spec: ground it against a state, search, and name the gap if none.

Grounding keeps every fact's domain finite: effects only assign constants, so a
fact can only ever hold its current value or a value some effect assigns.
Compiled tasks are cached on the spec, keyed by the current values that fall
outside those domains (e.g. a measured latency), so a runtime that replans every
tick pays the compile once.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from typing import Any

from ..errors import PlanningError
from ..model.conditions import Condition, format_value
from ..model.spec import Spec
from ..model.state import complete_state
from .explain import relaxed_gaps
from .result import Blocker, PlanResult, SearchLimits, SearchOutcome, Setter, UnreachableFact
from .search import SearchFn, get_search
from .search.decompose import parts, remaining
from .task import GroundAction, Task

__all__ = ["compile_spec", "plan"]

_OUT = object()  # cache-key marker for "value is inside the static domain"


def _sort_key(v: Any) -> tuple[int, Any]:
    if v is None:
        return (0, 0)
    if isinstance(v, str):
        return (2, v)
    return (1, v)


def _relevant_facts(spec: Spec) -> list[str]:
    used: set[str] = {c.fact for c in spec.goal_conditions}
    for a in spec.actions.values():
        used.update(c.fact for c in a.pre_conditions)
        used.update(f for f, _ in a.effect_values)
    return [f for f in spec.facts if f in used]


def _static_domains(spec: Spec) -> dict[str, set[Any]]:
    cached = spec._cache.get("domains")
    if cached is None:
        cached = {}
        for f in _relevant_facts(spec):
            cached[f] = {False, True} if spec.facts[f].type == "bool" else set()
        for a in spec.actions.values():
            for f, v in a.effect_values:
                cached[f].add(v)
        spec._cache["domains"] = cached
    return cached


def compile_spec(spec: Spec, state: Mapping[str, Any]) -> Task:
    """The compiled task whose domains cover ``state`` (cached per out-of-domain values)."""
    static = _static_domains(spec)
    key = ("task",) + tuple(
        _OUT if state.get(f) in dom and state.get(f) is not None else state.get(f)
        for f, dom in static.items()
    )
    tasks: dict[Any, Task] = spec._cache.setdefault("tasks", {})
    task = tasks.get(key)
    if task is not None:
        return task
    names = list(static)
    index = {f: i for i, f in enumerate(names)}
    domains: list[list[Any]] = []
    for f in names:
        dom = set(static[f])
        dom.add(state.get(f))
        domains.append(sorted(dom, key=_sort_key))

    # value -> index, for facts with many values: a spec of 500-step counters would
    # otherwise test every condition against every value (quadratic)
    pos: dict[int, dict[Any, int]] = {}

    def position(v: int, value: Any) -> int | None:
        p = pos.get(v)
        if p is None:
            p = pos[v] = {x: i for i, x in enumerate(domains[v])}
        return p.get(value)

    def allowed(conds: Collection[Condition]) -> list[tuple[int, frozenset[int]]]:
        by_var: dict[int, frozenset[int]] = {}
        for c in conds:
            v = index[c.fact]
            dom = domains[v]
            if c.op == "==" and len(dom) > 8:
                i = position(v, c.value)
                ok = frozenset(() if i is None or not c.holds(dom[i]) else (i,))
            else:
                ok = frozenset(i for i, val in enumerate(dom) if c.holds(val))
            by_var[v] = by_var[v] & ok if v in by_var else ok
        return sorted(by_var.items())

    def value_index(f: str, value: Any) -> int:
        v = index[f]
        dom = domains[v]
        if len(dom) > 8:
            i = position(v, value)
            if i is not None:
                return i
        return dom.index(value)

    actions = [
        GroundAction(
            name=name,
            pre=tuple(allowed(a.pre_conditions)),
            eff=tuple((index[f], value_index(f, v)) for f, v in a.effect_values),
            cost=a.cost,
        )
        for name, a in spec.actions.items()
    ]
    task = Task.compile(names, domains, actions, allowed(spec.goal_conditions))
    if len(tasks) >= 256:  # bound the cache for long runs with drifting measurements
        tasks.clear()
    tasks[key] = task
    return task


def _encode(task: Task, state: Mapping[str, Any]) -> int:
    return task.encode(
        [task.domains[i].index(state.get(f)) for i, f in enumerate(task.var_names)]
    )


def plan(
    spec: Spec,
    state: Mapping[str, Any],
    *,
    search: str = "astar",
    heuristic: str | None = None,
    exclude: Collection[str] = (),
    limits: SearchLimits | None = None,
) -> PlanResult:
    """Plan from ``state`` to the spec's goal.

    ``state`` maps facts to values (``None`` = unknown, which satisfies no
    condition). Actions named in ``exclude`` are not used. Never returns
    ``None``: a missing plan is a result that names the unreachable goal facts.
    """
    for name in exclude:
        if name not in spec.actions:
            raise PlanningError(f"cannot exclude unknown action {name!r}")
    full_state = complete_state(spec, state, allow_unknown=True)
    fn = get_search(search)
    t0 = time.perf_counter()
    task = compile_spec(spec, full_state)
    init = _encode(task, full_state)
    names = list(spec.actions)
    excl = frozenset(names.index(n) for n in exclude)
    try:
        out = _solve(fn, task, init, excl, limits or SearchLimits(), heuristic)
    except MemoryError:  # the budget's check comes too late under a tight `ulimit -v`
        from .search._common import over_budget

        raise over_budget("ran out of memory (an allocation failed)") from None
    seconds = time.perf_counter() - t0
    if out.plan is not None:
        return PlanResult(
            status="found",
            plan=tuple(task.operators[i].name for i in out.plan),
            cost=out.cost,
            expanded=out.expanded,
            generated=out.generated,
            seconds=seconds,
            search=search,
            heuristic=out.heuristic,
            steps=tuple(out.plan),
        )
    if not out.exhausted:
        return PlanResult(
            status="limit", plan=(), cost=0.0, expanded=out.expanded, generated=out.generated,
            seconds=seconds, search=search, heuristic=out.heuristic,
            reason="the search stopped at its limit before finding a plan or proving there is none",
        )
    gaps, reason = explain(spec, task, init, full_state, excl)
    return PlanResult(
        status="unreachable", plan=(), cost=0.0, expanded=out.expanded, generated=out.generated,
        seconds=seconds, search=search, heuristic=out.heuristic, unreachable=gaps, reason=reason,
    )


def _solve(
    fn: SearchFn, task: Task, init: int, excl: frozenset[int], limits: SearchLimits,
    heuristic: str | None,
) -> SearchOutcome:
    """Search each independent part of the task (see ``search.decompose``) in turn."""
    subtasks = parts(task, excl)
    if len(subtasks) == 1:
        return fn(task, init, exclude=excl, limits=limits, heuristic=heuristic)
    t0 = time.perf_counter()
    steps: list[int] = []
    cost = 0.0
    expanded = generated = 0
    names: list[str] = []
    for sub in subtasks:
        out = fn(sub, init, exclude=excl, limits=remaining(limits, t0, expanded),
                 heuristic=heuristic)
        expanded += out.expanded
        generated += out.generated
        if out.heuristic not in names:
            names.append(out.heuristic)
        if out.plan is None:
            out.expanded, out.generated = expanded, generated
            return out
        steps.extend(out.plan)
        cost += out.cost
    label = f"{'/'.join(names)}, {len(subtasks)} independent parts"
    return SearchOutcome(steps, cost, expanded, generated, True, label)


def _cond_text(conds: Collection[Condition], fact: str) -> str:
    return " and ".join(c.text() for c in conds if c.fact == fact)


def explain(
    spec: Spec, task: Task, init: int, state: Mapping[str, Any], excl: frozenset[int]
) -> tuple[tuple[UnreachableFact, ...], str]:
    """Name the goal facts that cannot be reached and, recursively, what blocks their setters."""
    reached, gaps = relaxed_gaps(task, init, excl)

    def setters_for(allowed: int, depth: int, seen: frozenset[tuple[int, int]]) -> tuple[Setter, ...]:
        out = []
        for o in task.operators:
            if not o.add & allowed:
                continue
            action = spec.actions[o.name]
            blocked = []
            for pv in o.pre_vars:
                pa = task.var_masks[pv] & ~o.forbid
                if pa & reached:
                    continue
                key = (pv, pa)
                nested = () if depth >= 6 or key in seen else setters_for(pa, depth + 1, seen | {key})
                fact = task.var_names[pv]
                blocked.append(Blocker(fact, _cond_text(action.pre_conditions, fact), nested))
            out.append(Setter(o.name, tuple(blocked), excluded=o.index in excl))
        return tuple(out)

    out = []
    for g in gaps:
        fact = task.var_names[g.var]
        out.append(
            UnreachableFact(
                fact, _cond_text(spec.goal_conditions, fact), state.get(fact),
                setters_for(g.allowed, 0, frozenset({(g.var, g.allowed)})),
            )
        )
    if out:
        facts = ", ".join(u.fact for u in out)
        return tuple(out), f"no sequence of available actions makes {facts} hold"
    # Each goal fact is reachable alone, but not all together.
    names = list(spec.actions)
    together = []
    for c in spec.goal_conditions:
        if not c.holds(state.get(c.fact)):
            setters = tuple(
                Setter(name, (), names.index(name) in excl)
                for name, a in spec.actions.items()
                if any(f == c.fact and c.holds(v) for f, v in a.effect_values)
            )
            together.append(UnreachableFact(c.fact, c.text(), state.get(c.fact), setters))
    return (
        tuple(together),
        "each goal fact can be reached on its own, but no plan reaches them together "
        "(the actions' effects undo each other)",
    )


def format_state(state: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={format_value(v)}" for k, v in state.items())
