"""The agent SPEC document: everything a reader needs to implement the runner.

Generated from the spec, never written by hand: five parts (state schema, action
contract, planning loop, replan trigger, escalation policy), then the tick cap,
the observer of every fact, and Mermaid diagrams of the action graph and first plan.
Every sentence about the loop states what goalkeeper's runtime does, so a runner
built from this text behaves like ``goalkeeper run``.
"""

from __future__ import annotations

import json
from typing import Any

from ..model.conditions import format_value
from ..model.spec import Observer, Spec
from ..planning.result import PlanResult
from .mermaid import action_graph, plan_diagram
from .table import observer_json

__all__ = ["contract_table", "loop_rules", "render_document", "schema_text", "state_schema"]

_TYPE_JSON = {"bool": "boolean", "int": "integer", "float": "number", "str": "string"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _run_text(run: str | list[str] | None) -> str:
    if run is None:
        return "(nothing to run)"
    if isinstance(run, str):
        return f"`/bin/sh -c {json.dumps(run)}`"
    return "`" + json.dumps(run) + "` (argv, no shell)"


def state_schema(spec: Spec) -> dict[str, Any]:
    """The flat fact map: one entry per fact with its type and its single observer."""
    out: dict[str, Any] = {}
    for name, f in spec.facts.items():
        entry: dict[str, Any] = {"type": _TYPE_JSON[f.type], "nullable": True}
        entry["observer"] = observer_json(f.observe) if f.observe else None
        if f.diagnostic:
            entry["diagnostic"] = True
        if f.initial is not None:
            entry["initial"] = f.initial
        if f.description:
            entry["description"] = f.description
        out[name] = entry
    return out


def schema_text(spec: Spec) -> str:
    """The state schema as JSON with one line per fact (readable and diffable)."""
    rows = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in state_schema(spec).items()]
    return "{\n" + ",\n".join(rows) + "\n}"


def contract_table(spec: Spec) -> str:
    rows = [
        "| action | preconditions | effects | cost | destructive | run |",
        "|---|---|---|---|---|---|",
    ]
    for name, a in spec.actions.items():
        pre = ", ".join(str(c) for c in a.pre_conditions) or "(none)"
        eff = ", ".join(f"{f} = {format_value(v)}" for f, v in a.effect_values) or "(none)"
        dest = ("yes, needs approval" if a.confirm else "yes") if a.destructive else "no"
        rows.append(
            f"| `{name}` | {_cell(pre)} | {_cell(eff)} | {format_value(a.cost)} | {dest} | "
            f"{_cell(_run_text(a.run))} |"
        )
    return "\n".join(rows)


def _cap(spec: Spec) -> str:
    cap = spec.policy.max_ticks
    return f"{cap} ticks" if cap is not None else "none (unbounded: lint warns about this)"


def loop_rules(spec: Spec) -> list[str]:
    """The planning loop, one numbered rule per line (shared with the prompts)."""
    p = spec.policy
    cap = p.max_ticks
    return [
        "Start: observe every non-diagnostic fact, concurrently, from the spec's folder. Each "
        f"observer has a timeout ({format_value(p.observe_timeout)} s unless the observer sets "
        "its own); an observer that fails, hangs or prints something unparsable yields `null` "
        "(unknown), and unknown satisfies no condition. A diagnostic fact is not observed on "
        "normal ticks: its value is a belief (its `initial` value, else observed once at the "
        "start; then the effects of actions that succeeded) until the replan trigger observes it.",
        "If every goal condition holds on the current facts: stop, the goal is reached.",
        (f"If {cap} ticks have been used (actions run or refused): escalate (the tick cap)."
         if cap is not None else "There is no tick cap (policy.max_ticks is null)."),
        "Plan from the current facts to the goal. Backward chaining (regression): start from "
        "the goal conditions, pick actions whose effects satisfy them, then actions that "
        "satisfy those actions' preconditions, until everything needed holds now. "
        "goalkeeper's runtime uses A* (optimal, forward) by default; regression A* is equally "
        "optimal (same cost); greedy best-first is faster but may return a costlier plan. "
        "No plan: escalate. If the plan starts with a blocked action (part 4), plan again "
        "without the blocked actions; still no plan: escalate.",
        "Execute ONLY the first action of the plan (one tick = one action, never a batch).",
        "Re-observe the non-diagnostic facts. The action FAILED if it exited non-zero, timed "
        f"out ({format_value(p.action_timeout)} s unless the action sets its own), crashed, or "
        "exited 0 but an effect on a non-diagnostic fact does not hold (a measured number "
        "passes when it satisfies every goal/precondition the claimed value satisfies). On "
        "success its effects on diagnostic facts become beliefs.",
        "A failure is a strike; a successful action resets the strikes to 0. At "
        f"{p.strikes} strikes the replan trigger fires (part 4).",
        "Back to step 2 with the facts just observed. The plan is recomputed every tick; "
        "nothing from the previous plan is trusted.",
    ]


def _observer_line(name: str, obs: Observer | None, ftype: str, default_timeout: float) -> str:
    if obs is None:
        return f"| `{name}` | {ftype} | (none: cannot run) | - |"
    timeout = format_value(obs.timeout or default_timeout)
    text = obs.describe()
    if obs.expect_status is not None:
        text += f", true when status is {obs.expect_status}"
    if obs.cwd:
        text += f", in `{obs.cwd}`"
    if obs.env:
        text += ", env " + ", ".join(f"{k}={v}" for k, v in sorted(obs.env.items()))
    return f"| `{name}` | {ftype} | {_cell(text)} | {timeout} s |"


def render_document(
    spec: Spec, first_plan: PlanResult, *, target: str, source: str, start: str | None = None
) -> str:
    p = spec.policy
    title = spec.name or "agent"
    goal = ", ".join(str(c) for c in spec.goal_conditions)
    out: list[str] = [
        f"# {title}: agent SPEC",
        "",
        f"Generated by `goalkeeper build {source} --target {target}`. Do not edit by hand: "
        "change the spec and rebuild.",
        "",
    ]
    if spec.description:
        out += [spec.description, ""]
    out += [f"**Goal:** {goal}", ""]
    out += [
        "## 1. State schema",
        "",
        "The state is a flat JSON object mapping each fact to its value (`null` = unknown). "
        "Each fact has exactly one observer; nothing else may write a fact's value.",
        "",
        "```json",
        schema_text(spec),
        "```",
        "",
        "## 2. Action contract",
        "",
        "An action may run only when all its preconditions hold on observed values. Its "
        "effects are claims that the next observation checks.",
        "",
        contract_table(spec),
        "",
        "## 3. Planning loop",
        "",
        "Each tick:",
        "",
    ]
    out += [f"{i}. {rule}" for i, rule in enumerate(loop_rules(spec), 1)]
    destructive = [n for n, a in spec.actions.items() if a.destructive]
    out += [
        "",
        "Destructive actions"
        + (f" ({', '.join(f'`{n}`' for n in destructive)})" if destructive else " (none here)")
        + ": right before executing one, observe its precondition facts again, fresh, and "
        "refuse it if any precondition does not hold (a strike; no action runs, but the "
        "refusal uses a tick, so the tick cap also bounds refusals). An action with "
        "`confirm: true` also needs approval (`--yes` or an interactive prompt); "
        "non-interactive without `--yes` escalates. `run` as a list is an argv (no shell); "
        "as a string it runs under `/bin/sh -c`.",
        "",
        "## 4. Replan trigger",
        "",
        f"When the strikes reach {p.strikes} (policy.strikes; 3 by default):",
        "",
        "1. Re-observe every fact, including facts marked `diagnostic: true`.",
        "2. Report which believed facts turned out different: every fact whose value before "
        "this observation (observed earlier, or believed from `initial` and from the effects "
        "of actions that succeeded) differs from the fresh value. The fresh values replace "
        "the beliefs.",
        "3. Block every action that failed since the last success, with a snapshot of all "
        "facts. No silent retry: a blocked action is never run again while every fact still "
        "equals its snapshot; any change lifts the block.",
        "4. Reset the strikes to 0 and replan from the observed facts (step 2 of the loop): "
        "a plan that starts with a blocked action is replaced by one without blocked actions; "
        "none: escalate.",
        "",
        "## 5. Escalation policy",
        "",
        "Escalate when no plan exists, when the tick cap is reached, or when a destructive "
        "action needs approval nobody can give. Escalating means: stop acting, and write a "
        "report as JSON and Markdown into the triage inbox `.goalkeeper/triage/` (or "
        "`$GOALKEEPER_HOME/triage/`), for the human who owns this agent (`goalkeeper triage "
        "list` shows it). The report names:",
        "",
        "- the goal fact(s) that cannot be reached and their observed values;",
        "- every observed fact (diagnostic facts included);",
        "- the failure history (each action, its tick, why it failed, each replan);",
        "- the action/precondition pair that would close the gap: for each unreachable goal "
        "fact, the actions that could set it and the preconditions that keep them blocked.",
        "",
        "The run then exits with code 3 (escalated).",
        "",
        "## Tick cap and observers",
        "",
        f"**Tick cap:** {_cap(spec)}. **Strikes:** {p.strikes}. **Observer timeout:** "
        f"{format_value(p.observe_timeout)} s. **Action timeout:** {format_value(p.action_timeout)} s.",
        "",
        "| fact | type | observer | timeout |",
        "|---|---|---|---|",
    ]
    out += [
        _observer_line(n, f.observe, f.type + (" (diagnostic)" if f.diagnostic else ""), p.observe_timeout)
        for n, f in spec.facts.items()
    ]
    out += [
        "",
        "Default parsing: a bool fact is true when the command exits 0, the file exists or "
        "the HTTP status is 2xx (or `expect_status`); a number fact takes the first number "
        "in the output; a string fact takes the stripped text. A command that exits non-zero "
        "yields unknown for any parse but `exit_code`.",
        "",
        "## Action graph",
        "",
        "```mermaid",
        action_graph(spec),
        "```",
        "",
        "## First plan",
        "",
        _plan_sentence(first_plan, start),
        "",
        "```mermaid",
        plan_diagram(first_plan, spec),
        "```",
        "",
    ]
    return "\n".join(out)


def _plan_sentence(result: PlanResult, start: str | None) -> str:
    start = start or ("From a fresh world (each fact's `initial` value; false for a bool fact "
                      "without one, unknown for the rest)")
    if not result.found:
        return f"{start} there is no plan yet: {result.reason}."
    if not result.plan:
        return f"{start} the goal already holds."
    return (f"{start}, backward chaining finds {len(result.plan)} step(s) of total cost "
            f"{format_value(result.cost)}: {' → '.join(result.plan)}.")
