"""What each MCP tool does, without the MCP SDK: plain functions that return JSON-ready dicts.

Every function takes what the matching CLI command takes and returns what its
``--json`` prints; bad input raises the error the CLI turns into its message
(:func:`goalkeeper.integrations._errors.describe` gives the same words). The
server (:mod:`.mcp_server`) only adapts these to the protocol, so they are
tested directly and through a real stdio client.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ConfigError, SpecError
from ..store.ids import IdKind, resolve_id

__all__ = [
    "TOOLS",
    "build_tool",
    "goal_check_tool",
    "goal_list_tool",
    "goal_logs_tool",
    "goal_new_tool",
    "goal_status_tool",
    "observe_tool",
    "plan_tool",
    "status_of",
    "triage_list_tool",
    "triage_show_tool",
    "validate_tool",
]


def _id(kind: IdKind, text: str) -> str:
    return resolve_id(kind, str(text).strip())


def _path(name: str, value: str | None) -> None:
    """A JSON string may carry a NUL byte no file name can hold; say which argument, not "a bug"."""
    if value is not None and "\x00" in str(value):
        raise ConfigError(f"{name}: {value!r} contains a NUL byte, which no path can hold; pass the path without it")


# --- specs --------------------------------------------------------------------------

def validate_tool(spec: str, strict: bool = False) -> dict[str, Any]:
    """``goalkeeper validate SPEC --json``: an invalid spec is an answer (``valid: false``), not an error."""
    from ..model.lint import lint
    from ..model.loader import attach_lines, load_spec
    from ..model.vars import unset_variables

    _path("spec", spec)
    try:
        loaded = load_spec(spec)
    except SpecError as e:
        return {"valid": False, "spec": spec, "issues": [i.to_dict() for i in e.issues]}
    issues = lint(loaded) + attach_lines(loaded, unset_variables(loaded, os.environ))
    errors = [i for i in issues if i.severity == "error" or strict]
    return {"valid": not errors, "spec": spec, "name": loaded.name, "issues": [i.to_dict() for i in issues]}


def plan_tool(spec: str, state: str | dict[str, Any] | None = None, search: str = "astar",
              exclude: list[str] | None = None, max_seconds: float | None = None) -> dict[str, Any]:
    """``goalkeeper plan SPEC [--state FILE] --json``; ``state`` may also be an object of fact values."""
    from ..model.loader import load_spec
    from ..model.state import complete_state, load_state
    from ..planning import SearchLimits, plan

    if search not in ("astar", "regression", "greedy"):
        raise ConfigError(f"search {search!r} is not one of astar, regression, greedy")
    _path("spec", spec)
    if not isinstance(state, dict):
        _path("state", state)
    loaded = load_spec(spec)
    if isinstance(state, dict):
        values = complete_state(loaded, state, source="state")
    elif state:
        values = load_state(loaded, state)
    else:
        values = complete_state(loaded, {}, source="initial values")
    result = plan(loaded, values, search=search, exclude=tuple(exclude or ()),
                  limits=SearchLimits(max_seconds=max_seconds))
    return {"found": result.found, **result.to_dict()}


def observe_tool(spec: str) -> dict[str, Any]:
    """``goalkeeper observe SPEC --json``: every fact read from the world now, and whether the goal holds."""
    from ..model.lint import require_runnable
    from ..model.loader import load_spec
    from ..runtime.decide import goal_holds
    from ..runtime.observers import ObserveContext, observe_all

    _path("spec", spec)
    loaded = load_spec(spec)
    require_runnable(loaded)
    ctx = ObserveContext(base_dir=Path(spec).resolve().parent, env=dict(os.environ),
                         timeout=loaded.policy.observe_timeout)
    obs = observe_all(loaded, list(loaded.facts), ctx)
    facts = {f: o.value for f, o in obs.items()}
    return {
        "goalHolds": goal_holds(loaded, facts),
        "unmet": [str(c) for c in loaded.goal_conditions if not c.holds(facts.get(c.fact))],
        "facts": {f: {"value": o.value, "error": o.error, "detail": o.detail} for f, o in obs.items()},
    }


def build_tool(spec: str, target: str, out_dir: str | None = None) -> dict[str, Any]:
    """``goalkeeper build SPEC --target T -o DIR --json``."""
    from ..build import TARGETS, build, write_build
    from ..model.loader import load_spec

    if target not in TARGETS:
        raise ConfigError(f"target {target!r} is not one of {', '.join(sorted(TARGETS))}")
    _path("spec", spec)
    _path("out_dir", out_dir)
    loaded = load_spec(spec)
    files = build(loaded, target, source=Path(spec).name)
    out = Path(out_dir) if out_dir else Path(spec).parent / "build" / target
    written = write_build(files, out)
    return {"target": target, "out": str(out), "files": [p.name for p in written]}


# --- goals --------------------------------------------------------------------------

def status_of(goal: Any) -> dict[str, Any]:
    """The fields ``goal status --json`` prints."""
    last = goal.history[-1] if goal.history else None
    return {
        "goalId": goal.goal_id,
        "state": goal.state,
        "objective": goal.objective,
        "makerType": goal.maker.type,
        "workspace": goal.workspace,
        "session": goal.source.get("session"),
        "iterations": len(goal.history),
        "maxIterations": goal.budget.max_iterations,
        "spentDollars": goal.spent_dollars(),
        "elapsedSeconds": goal.elapsed_seconds,
        "phase": last.phase if last else None,
        "lastConditions": [{"command": c.command, "passed": c.passed, "summary": c.summary}
                           for c in (last.condition_results if last else [])],
        "lastHint": goal.last_hint(),
        "escalation": goal.escalation.dump() if goal.escalation else None,
    }


def _maker_names(maker_type: str, oracle: str) -> None:
    """The CLI's check of ``--maker-type`` and ``--oracle``, with its words."""
    from ..adapters import agents  # noqa: F401 - registers the coding-agent makers and oracles
    from ..adapters.makers import MAKERS
    from ..convergence import llm_oracle  # noqa: F401 - registers openai:/anthropic: oracles
    from ..convergence.oracle import ORACLES

    if maker_type not in MAKERS:
        raise ConfigError(f"maker_type: unknown maker type {maker_type!r} (known: {', '.join(sorted(MAKERS))})")
    prefix = oracle.split(":", 1)[0] + ":" if ":" in oracle else oracle
    if oracle not in ORACLES and prefix not in ORACLES:
        known = ", ".join(n + "MODEL" if n.endswith(":") else n for n in sorted(ORACLES))
        raise ConfigError(f"oracle: unknown oracle {oracle!r} (known: {known})")


def goal_new_tool(
    objective: str,
    until: list[str] | str | None = None,
    types: list[str] | None = None,
    threshold: float | None = None,
    maker_type: str = "host",
    maker: list[str] | str | None = None,
    session: str | None = None,
    workspace: str | None = None,
    max_iterations: int | None = 15,
    max_duration: str | None = "2h",
    max_dollars: float | None = 10.0,
    protect: list[str] | None = None,
    allow_edit: list[str] | None = None,
    check_outputs: list[str] | None = None,
    check_env: dict[str, str] | None = None,
    oracle: str = "deterministic",
    sandbox: str = "auto",
) -> dict[str, Any]:
    """``goalkeeper goal new``: persisted (and, for a host goal, baselined) before this returns."""
    from ..convergence import (
        Budget,
        Guards,
        MakerSpec,
        OracleConfig,
        conditions_from_commands,
        create_goal,
    )
    from ..convergence.goal import MAX_CONDITIONS, check_env_names
    from ..convergence.preflight import preflight_parts, refuse
    from ..convergence.protect import DEFAULT_TESTS

    _maker_names(maker_type, oracle)
    _path("workspace", workspace)
    commands = [until] if isinstance(until, str) else list(until or [])
    if len(commands) > MAX_CONDITIONS:
        raise ConfigError(f"until: {len(commands)} stopping conditions; at most {MAX_CONDITIONS} "
                          "(merge checks into one script)")
    try:
        argv = shlex.split(maker) if isinstance(maker, str) else list(maker or [])
    except ValueError as e:
        raise ConfigError(f"maker: cannot split {maker!r} into arguments: {e}") from None
    try:
        env = check_env_names(dict(check_env or {}))
    except ValueError as e:
        raise ConfigError(str(e)) from None
    conditions = conditions_from_commands(commands, list(types or []), threshold)
    maker_spec = MakerSpec(type=maker_type, argv=argv, sandbox=sandbox)
    oracle_cfg = OracleConfig(model=oracle)
    ws = Path(workspace or ".").resolve()
    # what `goal new` refuses, refused here too: a goal that could never run is not saved
    refuse(preflight_parts(conditions, maker_spec, oracle_cfg, ws, condition_env=env,
                           maker_text=maker if isinstance(maker, str) else None), "goal_new refused")
    goal = create_goal(
        objective,
        conditions,
        budget=Budget(max_iterations=max_iterations, max_duration=max_duration, max_dollars=max_dollars),
        maker=maker_spec,
        oracle=oracle_cfg,
        guards=Guards(protected_paths=list(protect or []), test_paths=list(DEFAULT_TESTS),
                      allow_edit=list(allow_edit or []), check_outputs=list(check_outputs or [])),
        workspace=ws,
        condition_env=env,
        source={"session": session} if session else None,
    )
    out = status_of(goal)
    if goal.maker.type == "host":
        out["next"] = (f"work on the objective in {goal.workspace}, then call goal_check with goal_id "
                       f"{goal.goal_id!r}; stop only when its state is converged (or escalated)")
    return out


def goal_check_tool(goal_id: str) -> dict[str, Any]:
    """``goalkeeper goal check ID --json``: one sealed iteration on what the host left."""
    from ..convergence import check_goal
    from ..convergence.verdict import check_verdict

    return check_verdict(check_goal(_id("goal", goal_id)))


def goal_status_tool(goal_id: str) -> dict[str, Any]:
    from ..convergence import load_goal

    return status_of(load_goal(_id("goal", goal_id)))


def goal_list_tool(active: bool = False) -> dict[str, Any]:
    """``goalkeeper goal list --json`` (oldest first); damaged files are listed apart, never fatal."""
    from ..convergence import list_goals

    broken: list[tuple[str, str]] = []
    goals = sorted(list_goals(broken=broken), key=lambda g: g.created_at or "")
    if active:
        goals = [g for g in goals if g.state in ("active", "paused")]
    return {"goals": [status_of(g) for g in goals],
            "damaged": [{"goalId": name, "problem": why} for name, why in broken]}


def goal_logs_tool(goal_id: str, iteration: int | None = None) -> dict[str, Any]:
    """What the maker and each check printed, per iteration (bounded, secrets masked)."""
    from ..convergence.logs import read_logs

    gid = _id("goal", goal_id)
    return {"goalId": gid, "logs": read_logs(gid, iteration)}


# --- triage -------------------------------------------------------------------------

def triage_list_tool(status: str | None = None) -> dict[str, Any]:
    from ..store.triage import list_items

    if status is not None and status not in ("pending", "acted", "dismissed", "deferred"):
        raise ConfigError(f"status {status!r} is not one of pending, acted, dismissed, deferred")
    broken: list[tuple[str, str]] = []
    items = list_items(status=status, broken=broken)
    return {"items": [i.model_dump(mode="json") for i in items],
            "damaged": [{"itemId": name, "problem": why} for name, why in broken]}


def triage_show_tool(item_id: str) -> dict[str, Any]:
    from ..store.triage import get_item, markdown_of

    tid = _id("triage", item_id)
    return {**get_item(tid).model_dump(mode="json"), "markdown": markdown_of(tid)}


# name -> (function, description, read-only); the server registers exactly these
TOOLS: dict[str, tuple[Callable[..., dict[str, Any]], str, bool]] = {
    "validate": (validate_tool, "Check a goalkeeper spec file: schema errors (key path, line) and lint warnings.",
                 True),
    "plan": (plan_tool, "Plan from a state (a JSON file path or an object of fact values; default: the spec's "
             "initial values) to the spec's goal, or say why no plan exists.", True),
    "observe": (observe_tool, "Observe every fact of a spec in the real world now and say whether its goal holds.",
                True),
    "build": (build_tool, "Write the agent SPEC document and a runtime deliverable (llm, code or hybrid) for a spec.",
              False),
    "goal_new": (goal_new_tool, "Create a goal. With maker_type 'host' (the default) you are the maker: work on "
                 "the objective, then call goal_check; goalkeeper runs the stopping conditions itself, sealed.",
                 False),
    "goal_check": (goal_check_tool, "Judge a host-maker goal: one sealed iteration on the workspace as you left it. "
                   "state 'active' = not done yet (read failing, findings and nextHint, keep working); "
                   "'converged' = done; 'escalated' = stop and tell the user (see triageId).", False),
    "goal_status": (goal_status_tool, "One goal's state, iteration count, spend, last check results and hint.", True),
    "goal_list": (goal_list_tool, "All goals, oldest first; active=true for active and paused goals only.", True),
    "goal_logs": (goal_logs_tool, "What the maker and each stopping condition printed, per iteration.", True),
    "triage_list": (triage_list_tool, "The triage inbox: escalations waiting for a human decision.", True),
    "triage_show": (triage_show_tool, "One triage item with its Markdown report and suggested actions.", True),
}
