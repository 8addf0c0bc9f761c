"""Deliverables for LLM workers: the system prompt, the answer schema, the validator contract.

The worker proposes; code disposes. The prompt carries the state schema, the
action contract and the loop rules, and pins the answer to one JSON shape
(``response.schema.json``) so the caller can check it before acting.
"""

from __future__ import annotations

import json
from typing import Any

from ..model.spec import Spec
from .document import contract_table, loop_rules, schema_text

__all__ = ["response_schema", "system_prompt", "validator_contract"]

DONE, ESCALATE = "DONE", "ESCALATE"


def response_schema(spec: Spec) -> dict[str, Any]:
    """One action and the state mutation it claims (its contract effects), or DONE/ESCALATE."""
    branches: list[dict[str, Any]] = []
    for name, a in spec.actions.items():
        branches.append(
            {
                "properties": {
                    "action": {"const": name},
                    "expects": {"const": dict(a.effect_values)},
                },
                "required": ["action", "expects", "reason"],
            }
        )
    for word in (DONE, ESCALATE):
        branches.append(
            {
                "properties": {"action": {"const": word}, "expects": {"const": {}}},
                "required": ["action", "reason"],
            }
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{spec.name or 'agent'} worker answer",
        "description": "ONE action per tick with the state mutation it claims, or DONE / ESCALATE.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "action": {"enum": [*spec.actions, DONE, ESCALATE]},
            "expects": {"type": "object", "description": "fact -> value the action will make hold"},
            "reason": {"type": "string", "description": "one sentence: which goal or precondition it serves"},
        },
        "required": ["action", "reason"],
        "oneOf": branches,
    }


def _example(spec: Spec) -> str:
    if spec.actions:
        name, a = next(iter(spec.actions.items()))
        ex: dict[str, Any] = {"action": name, "expects": dict(a.effect_values),
                              "reason": "the first step toward the goal"}
    else:
        ex = {"action": ESCALATE, "reason": "no action can reach the goal"}
    return json.dumps(ex, ensure_ascii=False)


def system_prompt(spec: Spec, *, proposer: bool = False) -> str:
    """The worker's system prompt; ``proposer`` adds the hybrid validator's rules."""
    name = spec.name or "agent"
    goal = ", ".join(str(c) for c in spec.goal_conditions)
    p = spec.policy
    role = (
        "You PROPOSE the next action; code validates the proposal against freshly observed "
        "state and executes it only if every rule below holds."
        if proposer else
        "You choose the next action; the caller executes it and observes the result."
    )
    out = [
        f"You are the planner of the goal-driven agent `{name}`. {role}",
        "",
        f"GOAL: {goal}. The goal is reached only when every condition holds on OBSERVED values.",
        "",
        "Each turn you receive the observed state as one JSON object mapping every fact to its "
        "value; `null` means unknown, and an unknown value satisfies no condition. Facts:",
        "",
        "```json",
        schema_text(spec),
        "```",
        "",
        "ACTIONS (the only ones that exist; never invent another):",
        "",
        contract_table(spec),
        "",
        "RULES (the loop the caller runs; follow it exactly):",
        "",
    ]
    out += [f"{i}. {rule}" for i, rule in enumerate(loop_rules(spec), 1)]
    out += [
        "",
        "How to choose: chain backward from the goal. Find an action whose effects satisfy an "
        "unmet goal condition; if its preconditions do not all hold on the observed state, "
        "find actions that make them hold, and so on. Answer with the FIRST action of the "
        "cheapest such chain whose preconditions hold NOW.",
        "",
        f"After {p.strikes} failures in a row you will be told which action is blocked; do not "
        "propose a blocked action until an observed fact has changed. If the goal holds, "
        f"answer {DONE}. If no chain of allowed actions reaches the goal, answer {ESCALATE}: "
        "a human reads the report.",
        "",
        "ANSWER with ONE JSON object and nothing else, matching response.schema.json: "
        "`action` (an action name, DONE or ESCALATE), `expects` (exactly that action's "
        "effects: the state mutation you claim it makes; `{}` for DONE/ESCALATE) and "
        "`reason` (one sentence). Example:",
        "",
        "```json",
        _example(spec),
        "```",
    ]
    if proposer:
        out += [
            "",
            "The validator refuses a proposal when: the action is unknown or blocked; any "
            "precondition fails on fresh observation; `expects` differs from the contract's "
            "effects; or a destructive action lacks approval. A refusal counts as a failure.",
        ]
    return "\n".join(out) + "\n"


def validator_contract(spec: Spec) -> str:
    """What the code side of a hybrid agent checks before it executes anything."""
    p = spec.policy
    destructive = [n for n, a in spec.actions.items() if a.destructive]
    lines = [
        f"# {spec.name or 'agent'}: validator contract (hybrid)",
        "",
        "The LLM proposes; this code decides. Nothing runs without passing every check, in order:",
        "",
        "1. The answer parses as JSON and matches `response.schema.json` (one action, its "
        "claimed mutation, a reason). Anything else is a failure (a strike).",
        "2. `DONE` is accepted only if every goal condition holds on freshly observed values; "
        "otherwise it is a failure. `ESCALATE` stops and files the escalation report.",
        "3. The action exists in `actions.json` and is not blocked (blocked = it triggered a "
        "replan and no observed fact has changed since).",
        "4. Observe the facts of the action's preconditions FRESH, right now. Every "
        "precondition must hold; unknown (`null`) holds nothing. A violation is refused and "
        "counts as a failure.",
        "5. `expects` must equal the action's contract effects exactly.",
        "6. Destructive actions"
        + (f" ({', '.join(f'`{n}`' for n in destructive)})" if destructive else " (none in this spec)")
        + ": any precondition violation is refused, always, whatever the proposal says; "
        "`confirm: true` also needs approval (`--yes` or a person at the prompt), and "
        "without a way to ask, escalate.",
        "7. Execute the action (`run`: argv list without a shell, or a string under "
        "`/bin/sh -c`), then re-observe: non-zero exit, timeout, crash, or an effect that "
        "does not hold is a failure.",
        f"8. Strikes, replan trigger, tick cap ({p.max_ticks if p.max_ticks is not None else 'none'}) "
        "and escalation exactly as in SPEC.md parts 3-5; the model never overrides them.",
        "",
        "`runner.py check PROPOSAL.json` performs checks 2 and 4-6 (and that the action "
        "exists; the blocked list lives in the caller's loop) against freshly observed state "
        "(or `--state STATE.json`) and prints `{\"ok\": ..., \"problems\": [...]}`; exit 0 "
        "means the proposal may run.",
        "",
    ]
    return "\n".join(lines)
