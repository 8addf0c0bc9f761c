"""Goal lifecycle outside the loop: create, pause, resume, abandon, roll back, escalate, promote.

Anything that changes a goal file takes the goal's lock first; when a loop is
running (the lock is taken) pause/abandon leave a request that the loop obeys
at its next phase boundary.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError, LockedError, NotFoundError
from ..store import goals as gstore
from ..store import triage
from ..store.home import home, new_id, now_iso
from . import ledger
from .checkpoints import Checkpoint
from .decide import apply_resume
from .goal import (
    Budget,
    Escalation,
    EscalationReason,
    Goal,
    Guards,
    MakerSpec,
    OracleConfig,
    StoppingCondition,
    check_rules,
)
from .persist import commit_goal, load_goal

__all__ = [
    "abandon_goal",
    "checkpoint_ref",
    "conditions_from_commands",
    "create_goal",
    "escalate",
    "infer_type",
    "pause_goal",
    "promote_item",
    "resume_goal",
    "rollback_goal",
    "RollbackPlan",
]

_TYPE_HINTS = (
    ("coverage_threshold", ("coverage report", "coverage json", "--cov")),
    ("test_pass", ("pytest", "unittest", "py.test", "npm test", "go test", "cargo test", "jest", "vitest", "tox")),
    ("lint_clean", ("ruff", "flake8", "pylint", "mypy", "eslint", "black --check", "golangci", "clippy")),
    ("build_pass", ("make", "build", "cargo build", "tsc", "go build")),
)


def infer_type(command: str) -> str:
    """A sensible condition type for a command (``pytest -q`` -> test_pass); explicit --type wins."""
    low = command.lower()
    for kind, needles in _TYPE_HINTS:
        if any(n in low for n in needles):
            return kind
    return "custom_command"


def conditions_from_commands(
    commands: list[str], types: list[str] | None = None, threshold: float | None = None
) -> list[StoppingCondition]:
    """Pair the i-th ``--type`` with the i-th ``--until``; missing types are inferred."""
    types = list(types or [])
    if len(types) > len(commands):
        raise ConfigError(f"{len(types)} --type values for {len(commands)} --until commands")
    out = []
    for i, cmd in enumerate(commands):
        kind = types[i] if i < len(types) else infer_type(cmd)
        out.append(StoppingCondition.model_validate(
            {"type": kind, "command": cmd, "threshold": threshold if kind == "coverage_threshold" else None}
        ))
    return out


def checkpoint_ref(goal_id: str, n: int) -> str:
    return f"refs/goalkeeper/{goal_id}/{n}"


def refuse_secret_env(env: Mapping[str, str]) -> None:
    """A credential given as a check variable would be kept in the goal file and its log: refused."""
    from ..store.redact import secret_names

    found = secret_names(env)
    if found:
        raise ConfigError(
            f"--check-env {found[0]}=...: a credential would be stored with the goal, in plain text in its "
            f"state files; export {found[0]} in the environment you run goalkeeper in instead (the checks "
            "inherit it, and its value is masked in every file goalkeeper writes)")


def create_goal(
    objective: str,
    conditions: list[StoppingCondition],
    *,
    budget: Budget | None = None,
    maker: MakerSpec | None = None,
    oracle: OracleConfig | None = None,
    guards: Guards | None = None,
    workspace: str | Path | None = None,
    source: dict[str, Any] | None = None,
    root: Path | None = None,
    condition_env: dict[str, str] | None = None,
) -> Goal:
    """Validate the hard rules, then persist the goal before anything else happens."""
    if not conditions:
        raise ConfigError("a goal needs at least one stopping condition; add one with --until 'CMD'")
    ws = Path(workspace or os.getcwd()).resolve()
    if not ws.is_dir():
        raise ConfigError(f"workspace {ws} is not a directory")
    if ws == Path(ws.anchor) or ws.parts[1:2] in (("proc",), ("sys",), ("dev",)):
        raise ConfigError(f"workspace {ws} is no project folder (the whole disk, or a kernel file system): every "
                          "file in it would be hashed and checkpointed; give the project's own folder")
    refuse_secret_env(condition_env or {})
    ts = now_iso()
    goal = Goal(
        goal_id=new_id("goal"),
        objective=objective,
        stopping_conditions=conditions,
        budget=budget or Budget(),
        maker=maker or MakerSpec(),
        oracle=oracle or OracleConfig(),
        guards=guards or Guards(),
        workspace=str(ws),
        created_at=ts,
        source=source or {},
        condition_env=condition_env or {},
    )
    check_rules(goal)
    commit_goal(goal, "goal.created", root, objective=objective, config=goal.dump())
    if goal.maker.type == "host":  # the host is already at work: its baseline is the tree as it is now
        from .loop import GoalLoop

        goal = GoalLoop(goal.goal_id, root=root).baseline()
    return goal


def _locked_or_request(goal_id: str, request: gstore.ControlRequest, root: Path | None) -> Goal | None:
    """Apply now if no loop runs (returns the goal to change); else leave a request (returns None)."""
    lock = gstore.goal_lock(goal_id, root)
    try:
        lock.acquire()
    except LockedError:
        ledger.write_request(goal_id, request, root)
        return None
    lock.release()
    return load_goal(goal_id, root)


def pause_goal(goal_id: str, root: Path | None = None) -> str:
    goal = load_goal(goal_id, root)
    if goal.state != "active":
        raise ConfigError(f"goal {goal_id} is {goal.state}; only an active goal can be paused")
    with_lock = _locked_or_request(goal_id, "pause", root)
    if with_lock is None:
        return "requested"
    with gstore.goal_lock(goal_id, root):
        goal = load_goal(goal_id, root)
        goal.state = "paused"
        commit_goal(goal, "goal.paused", root, detail="paused while not running")
    return "paused"


def abandon_goal(goal_id: str, root: Path | None = None) -> str:
    goal = load_goal(goal_id, root)
    if goal.state in ("converged", "failed"):
        raise ConfigError(f"goal {goal_id} is already {goal.state}")
    if _locked_or_request(goal_id, "abandon", root) is None:
        return "requested"
    with gstore.goal_lock(goal_id, root):
        goal = load_goal(goal_id, root)
        goal.state = "failed"
        goal.escalation = Escalation(reason="manual", detail="abandoned by the user", at=now_iso())
        commit_goal(goal, "goal.abandoned", root)
        gstore.clear_request(goal_id, root)
    return "abandoned"


def resume_goal(
    goal_id: str,
    *,
    max_iterations: int | None = None,
    max_dollars: float | None = None,
    max_duration: str | None = None,
    root: Path | None = None,
) -> Goal:
    """Make a paused goal active again (or a budget-exhausted one, with a raised budget)."""
    with gstore.goal_lock(goal_id, root):
        goal = load_goal(goal_id, root)
        apply_resume(goal, max_iterations=max_iterations, max_dollars=max_dollars, max_duration=max_duration)
        gstore.clear_request(goal_id, root)
        commit_goal(goal, "goal.resumed", root, hint=goal.last_hint())
    return goal


@dataclass(frozen=True, slots=True)
class RollbackPlan:
    """What a rollback writes and deletes, what it would lose, and where that was saved."""

    target: str
    write: list[str]
    delete: list[str]
    unsaved: list[str]
    saved_as: str | None = None
    done: bool = False


def _checkpoint_of(goal: Goal, seal: Any, to: str) -> tuple[str, Checkpoint]:
    if to in ("0", "baseline"):
        cp = seal.baseline_checkpoint
        if cp is None:
            raise NotFoundError(f"goal {goal.goal_id} has no baseline checkpoint (created with checkpoints off?)")
        return "baseline", cp
    saved = [s for s in goal.source.get("saved", []) if isinstance(s, dict)]
    if to.startswith("saved"):
        match = [s for s in saved if s.get("name") == to] or (saved[-1:] if to == "saved" else [])
        if not match:
            names = ", ".join(str(s.get("name")) for s in saved) or "none"
            raise NotFoundError(f"goal {goal.goal_id} has no saved tree {to!r} (saved: {names})")
        return str(match[0]["name"]), Checkpoint(str(match[0]["commit"]), str(match[0]["tree"]))
    try:
        n = int(to)
    except ValueError:
        raise ConfigError(f"--to {to!r}: give an iteration number, 0 for the baseline, or saved[-N]") from None
    for h in goal.history:
        if h.iteration == n and h.checkpoint and h.checkpoint_tree:
            return f"iteration {n}", Checkpoint(h.checkpoint, h.checkpoint_tree)
    raise NotFoundError(f"goal {goal.goal_id} has no checkpoint for iteration {n}")


def _latest(goal: Goal, seal: Any) -> Checkpoint | None:
    marks = [Checkpoint(h.checkpoint, h.checkpoint_tree) for h in goal.history if h.checkpoint and h.checkpoint_tree
             and not h.rejected]
    return marks[-1] if marks else seal.baseline_checkpoint


def rollback_goal(goal_id: str, to: int | str, root: Path | None = None, *, force: bool = False,
                  dry_run: bool = False) -> RollbackPlan:
    """Restore the workspace to a checkpoint (0 = the tree when the goal started) without losing work.

    Changes that are in no checkpoint make it refuse, unless ``force``: then
    they are first saved as a checkpoint of their own (``saved-N``) that a
    later rollback can return to.
    """
    from .seal import Seal

    with gstore.goal_lock(goal_id, root):
        goal = load_goal(goal_id, root)
        ws = Path(goal.workspace or os.getcwd()).resolve()
        seal = Seal(goal, ws, (root or home()).resolve())
        label, target = _checkpoint_of(goal, seal, str(to))
        current = seal.walk()
        write, delete = seal.store.plan_restore(target, current)
        latest = _latest(goal, seal)
        unsaved = _unsaved(goal, seal, current)
        plan = RollbackPlan(label, write, delete, unsaved)
        if dry_run:
            return plan
        if unsaved and not force:
            more = f" and {len(unsaved) - 8} more" if len(unsaved) > 8 else ""
            raise ConfigError(
                f"goal {goal_id}: {len(unsaved)} file(s) hold changes that are in no checkpoint "
                f"({', '.join(unsaved[:8])}{more}); a rollback would lose them. See what it would do with "
                "--dry-run, or pass --force to save them first as a checkpoint you can return to"
            )
        saved_as = None
        if unsaved:
            saved = [x for x in goal.source.get("saved", []) if isinstance(x, dict)]
            saved_as = f"saved-{len(saved) + 1}"
            cp = seal.store.commit(ws, current, f"goalkeeper {goal_id}: work saved before a rollback",
                                   parent=latest.commit if latest else None,
                                   ref=f"refs/goalkeeper/{goal_id}/{saved_as}")
            goal.source["saved"] = [*saved, {"name": saved_as, "commit": cp.commit, "tree": cp.tree, "at": now_iso()}]
            commit_goal(goal, "goal.saved", root, name=saved_as, files=len(unsaved))
        seal.store.restore(ws, target, current)
        commit_goal(goal, "goal.rolledback", root, to=label, written=len(write), deleted=delete[:200],
                    savedAs=saved_as)
        return RollbackPlan(label, write, delete, unsaved, saved_as, True)


def _unsaved(goal: Goal, seal: Any, current: Any) -> list[str]:
    """Files whose content at their path is in no checkpoint of this goal (they would be lost)."""
    marks = [seal.baseline_checkpoint] if seal.baseline_checkpoint else []
    marks += [Checkpoint(h.checkpoint, h.checkpoint_tree) for h in goal.history if h.checkpoint and h.checkpoint_tree]
    marks += [Checkpoint(str(x["commit"]), str(x["tree"])) for x in goal.source.get("saved", []) if isinstance(x, dict)]
    known: dict[str, set[str]] = {}
    for cp in marks:
        for rel, (_mode, blob) in seal.store.entries(cp).items():
            known.setdefault(rel, set()).add(blob)
    blobs = seal.store._blob_map()
    out = []
    for rel, h in current.files.items():
        if not seal.store.stored(rel):
            continue
        blob = blobs.get(h)
        if blob is None or blob not in known.get(rel, ()):
            out.append(rel)
    return sorted(out)


_SUGGESTIONS: dict[str, list[str]] = {
    "budget_exhausted": [
        "give it more room: `goalkeeper goal resume {gid} --max-iterations N`",
        "start over as a fresh goal: `goalkeeper triage act {tid} --goal`",
    ],
    "tampering": [
        "inspect what the maker did: `goalkeeper goal show {gid} -v` (each rejection names file:line)",
        "tell the maker not to touch tests/CI, or change the protected paths",
    ],
    "no_progress": ["change the maker, sharpen the objective, or split the goal"],
    "repeated_failure": ["run the maker by hand in the workspace and fix its setup"],
    "oracle_uncertain": ["judge the last iteration yourself: `goalkeeper goal show {gid}`"],
    "unrunnable": ["check the maker and every condition: `goalkeeper doctor {gid}`",
                   "fix the command with `goalkeeper goal edit {gid}` and resume"],
    "manual": [],
}


def _report(goal: Goal, reason: str, detail: str) -> str:
    lines = [f"# Goal {goal.goal_id} escalated: {reason}", "", detail, "", f"**Objective:** {goal.objective}", ""]
    lines += ["## Stopping conditions", ""]
    lines += [f"- `{c.type}`: {c.description or ''} `{c.command}`" for c in goal.stopping_conditions]
    lines += ["", "## Iterations", ""]
    for h in goal.history:
        failing = [c.command for c in h.condition_results if not c.passed]
        status = f"rejected: {h.rejected}" if h.rejected else (h.oracle_verdict or h.phase)
        lines.append(f"- {h.iteration}: {status}; maker: {h.maker_summary or '-'}; failing: {', '.join(failing) or '-'}")
    lines += ["", f"Spent ${goal.spent_dollars():.2f} over {goal.elapsed_seconds:.0f}s of active time.", ""]
    return "\n".join(lines)


def escalate(goal: Goal, reason: EscalationReason, detail: str, root: Path | None = None) -> Goal:
    """Mark the goal escalated (persisted first), then file the triage item and record its id."""
    if goal.escalation is None or goal.state != "escalated":
        goal.state = "escalated"
        goal.escalation = Escalation(reason=reason, detail=detail, at=now_iso())
        commit_goal(goal, "goal.escalated", root, reason=reason, detail=detail)
    esc = goal.escalation
    assert esc is not None
    if esc.triage_id is None:
        last = goal.history[-1] if goal.history else None
        ctx: dict[str, Any] = {
            "goalId": goal.goal_id,
            "objective": goal.objective,
            "workspace": goal.workspace,
            "stoppingConditions": [c.dump() for c in goal.stopping_conditions],
            "maker": goal.maker.dump(),
            "iterations": len(goal.history),
            "spentDollars": goal.spent_dollars(),
            "lastConditionResults": [
                {"type": c.type, "command": c.command, "passed": c.passed, "summary": c.summary}
                for c in (last.condition_results if last else [])
            ],
            "lastHint": goal.last_hint(),
        }
        actions = [
            s.format(gid=goal.goal_id, tid="<this-item-id>", n=last.iteration if last else 0)
            for s in _SUGGESTIONS.get(esc.reason, [])
        ]
        item = triage.file_item(
            source="goal",
            source_id=goal.goal_id,
            reason=esc.reason,
            summary=goal.objective,
            context=ctx,
            suggested_actions=actions,
            severity="critical" if esc.reason == "tampering" else "warning",
            markdown=_report(goal, esc.reason, esc.detail),
            root=root,
        )
        esc.triage_id = item.id
        commit_goal(goal, "goal.triaged", root, triageId=item.id)
    return goal


def promote_item(
    item_id: str,
    *,
    until: list[str] | None = None,
    types: list[str] | None = None,
    maker_argv: list[str] | None = None,
    max_iterations: int | None = None,
    workspace: str | None = None,
    root: Path | None = None,
) -> Goal:
    """Turn a triage item into a new goal: objective from its summary, conditions from flags or context."""
    item = triage.get_item(item_id, root)
    ctx = item.context
    if until:
        conditions = conditions_from_commands(until, types)
    elif isinstance(ctx.get("stoppingConditions"), list) and ctx["stoppingConditions"]:
        conditions = [
            StoppingCondition.model_validate(c if isinstance(c, dict) else {"type": infer_type(str(c)), "command": c})
            for c in ctx["stoppingConditions"]
        ]
    elif isinstance(ctx.get("until"), list) and ctx["until"]:
        conditions = conditions_from_commands([str(c) for c in ctx["until"]], types)
    else:
        raise ConfigError(
            f"triage item {item_id} carries no stopping conditions; pass them with --until 'CMD'"
        )
    # `is None`, not truthiness: an explicit 0 or [] is the caller's value, refused or kept, never a default
    maker = MakerSpec(argv=maker_argv) if maker_argv is not None else (
        MakerSpec.model_validate(ctx["maker"]) if isinstance(ctx.get("maker"), dict) else MakerSpec()
    )
    budget = Budget(max_iterations=max_iterations) if max_iterations is not None else Budget()
    ws = workspace or (ctx.get("workspace") if isinstance(ctx.get("workspace"), str) else None)
    from .preflight import preflight_parts, refuse

    # what `goal new` refuses is refused here too, before the goal is saved and the item closed
    refuse(preflight_parts(conditions, maker, OracleConfig(), Path(ws or os.getcwd()).resolve(), flags=True),
           f"triage act {item_id} --goal refused")
    goal = create_goal(
        item.summary, conditions, budget=budget, maker=maker, workspace=ws,
        source={"triageId": item.id, "from": item.source, "fromId": item.source_id}, root=root,
    )
    triage.set_status(item_id, "acted", promoted_goal=goal.goal_id, root=root)
    return goal
