"""Mermaid diagrams: the action graph (facts -> actions -> facts) and the first plan.

Node ids are positional (``f0``, ``a0``) so any fact or action name is safe;
names only appear inside quoted labels.
"""

from __future__ import annotations

from ..model.conditions import format_value
from ..model.spec import Spec
from ..planning.result import PlanResult

__all__ = ["action_graph", "plan_diagram"]


def _label(text: str) -> str:
    return '"' + text.replace('"', "#quot;") + '"'


def action_graph(spec: Spec) -> str:
    """Preconditions point from fact to action, effects from action to fact."""
    fid = {f: f"f{i}" for i, f in enumerate(spec.facts)}
    goal = {c.fact for c in spec.goal_conditions}
    lines = ["flowchart LR"]
    for f, i in fid.items():
        lines.append(f"  {i}([{_label(f)}])")
    for n, (name, a) in enumerate(spec.actions.items()):
        tag = " ⚠ destructive" if a.destructive else ""
        lines.append(f"  a{n}[{_label(name + tag)}]")
    for n, a in enumerate(spec.actions.values()):
        for c in a.pre_conditions:
            lines.append(f"  {fid[c.fact]} -->|{_label(c.text())}| a{n}")
        for f, v in a.effect_values:
            lines.append(f"  a{n} -->|{_label('= ' + format_value(v))}| {fid[f]}")
    lines.append("  classDef goal stroke-width:3px")
    if goal:
        lines.append("  class " + ",".join(fid[f] for f in spec.facts if f in goal) + " goal")
    return "\n".join(lines)


def plan_diagram(result: PlanResult, spec: Spec) -> str:
    """The plan as a chain from the starting state to the goal (or to the gap)."""
    lines = ["flowchart LR", f"  s0({_label('start')})"]
    if not result.found:
        missing = ", ".join(f"{u.fact} {u.condition}" for u in result.unreachable) or result.reason
        lines.append(f"  gap{{{_label('no plan: ' + missing)}}}")
        lines.append("  s0 --> gap")
        return "\n".join(lines)
    prev = "s0"
    for i, name in enumerate(result.plan, 1):
        lines.append(f"  s{i}[{_label(f'{i}. {name}')}]")
        lines.append(f"  {prev} --> s{i}")
        prev = f"s{i}"
    goal = ", ".join(str(c) for c in spec.goal_conditions)
    lines.append(f"  g(({_label('goal: ' + goal)}))")
    lines.append(f"  {prev} --> g")
    return "\n".join(lines)
