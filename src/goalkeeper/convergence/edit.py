"""``goal edit``, ``goal delete`` and ``goal prune``: change or remove a goal that is not running.

Editing changes a goal's rules between runs, as a signed ``goal.edited`` event.

What may change in place, and when:

* **guards** (``--protect``/``--unprotect``, ``--allow-edit``/``--disallow-edit``,
  ``--check-output``), the **maker** (command, model, timeout, sandbox,
  ``--maker-option``), ``--oracle-option``, ``--check-env`` and the **budget**:
  on an active or paused goal, and on one that escalated ``budget_exhausted``
  (a budget edit then reopens it as paused, so ``goal resume`` continues it).
  Guards apply from the next iteration and are compared with the goal's
  baseline, so a glob that would newly protect a file the workspace already
  changed (which would reject the next iteration) is refused unless ``force``.
* **stopping conditions** (``--until``, ``--drop-until``) only before the goal
  took its baseline: the baseline's reference run of each check is what every
  later verdict is compared with, so after it a changed check needs a new goal.
* anything else, or a goal that converged, failed or escalated for another
  reason (its history would escalate it again): ``--as-new`` copies the goal
  with the changes into a new goal on the same workspace (the old one, if
  active or paused, is closed as replaced; its triage item is marked acted).

A running goal is never edited (the loop holds the goal's lock); pause it first.
Every accepted edit is one signed event carrying each changed key's old and new
value, then the goal file (``persist.commit_goal``).

Deleting removes everything goalkeeper keeps for the goal (its file, event log,
seal, per-iteration logs, request and liveness files, its private checkpoint
repository, then its lock) and appends a signed **tombstone** to
``<home>/goals/tombstones.jsonl``: what the goal was, how it ended, and the head
of its event log, so ``goal show`` can say it was deleted and when. The
workspace and the triage items it filed are left alone. Trees saved before a
rollback (``saved-N``) live in the checkpoint repository, so a goal that keeps
any is deleted only with ``force``; so is a goal whose file is damaged.
Removal runs in an order that a second ``goal delete`` can finish after a crash.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import ConfigError, CorruptStateError, GoalkeeperError, LockedError, NotFoundError
from ..store import goals as gstore
from ..store import triage
from ..store.atomic import append_jsonl, read_jsonl
from ..store.home import home, now_iso
from ..store.ids import check_id
from ..store.safe import remove_file
from . import ledger
from .goal import Budget, Escalation, Goal, StoppingCondition, check_rules, parse_duration
from .lifecycle import refuse_secret_env
from .persist import audited_goal, commit_goal, load_goal

__all__ = [
    "EDITABLE",
    "Deleted",
    "EditResult",
    "GoalEdit",
    "apply_edit",
    "copy_as_new",
    "delete_goal",
    "edit_goal",
    "prune_candidates",
    "tombstone_of",
]

# the parts of a goal an edit may touch (camelCase, as in the goal file)
EDITABLE = ("objective", "stoppingConditions", "budget", "maker", "oracle", "guards", "conditionEnv")


@dataclass
class GoalEdit:
    """What to change. Empty fields change nothing; ``budget`` keys present are set (None = unlimited)."""

    objective: str | None = None
    protect: list[str] = field(default_factory=list)
    unprotect: list[str] = field(default_factory=list)
    allow_edit: list[str] = field(default_factory=list)
    disallow_edit: list[str] = field(default_factory=list)
    check_outputs: list[str] = field(default_factory=list)
    until: list[StoppingCondition] = field(default_factory=list)
    drop_until: list[str] = field(default_factory=list)
    maker_argv: list[str] | None = None
    maker_model: str | None = None
    maker_timeout: str | None = None
    sandbox: str | None = None
    maker_options: dict[str, Any] = field(default_factory=dict)  # already typed for the goal's maker
    drop_maker_options: list[str] = field(default_factory=list)
    oracle_options: dict[str, Any] = field(default_factory=dict)  # already typed for the goal's oracle
    check_env: dict[str, str] = field(default_factory=dict)
    drop_check_env: list[str] = field(default_factory=list)
    budget: dict[str, Any] = field(default_factory=dict)

    def touches_conditions(self) -> bool:
        return bool(self.until or self.drop_until)

    def touches_guards(self) -> bool:
        return bool(self.protect or self.unprotect or self.allow_edit or self.disallow_edit)


@dataclass(frozen=True, slots=True)
class EditResult:
    goal: Goal
    changes: list[dict[str, Any]]
    reopened: bool = False
    newly_protected: tuple[str, ...] = ()
    replaced: str | None = None  # --as-new: the goal the new one replaces
    done: bool = False


def _drop_conditions(conds: list[StoppingCondition], drop: list[str]) -> list[StoppingCondition]:
    out = list(conds)
    for d in drop:
        text = d.strip()
        idx = None
        if text.isdigit() and 1 <= int(text) <= len(out):
            idx = int(text) - 1
        else:
            for i, c in enumerate(out):
                cmd = c.command if isinstance(c.command, str) else " ".join(c.command)
                if text in (cmd, c.description or ""):
                    idx = i
                    break
        if idx is None:
            shown = "; ".join(f"{i + 1}: {c.label()}" for i, c in enumerate(out))
            raise ConfigError(f"--drop-until {d!r} names no stopping condition (give its command or number: {shown})")
        out.pop(idx)
    if not out:
        raise ConfigError("--drop-until would leave the goal without a stopping condition; add one with --until")
    return out


def _remove(items: list[str], drop: list[str], flag: str, what: str) -> list[str]:
    out = list(items)
    for d in drop:
        if d not in out:
            raise ConfigError(f"{flag} {d!r}: not one of the goal's {what} ({', '.join(out) or 'none'})"
                              + ("; the built-in seal (tool configs, CI and ignore files) cannot be removed, "
                                 "exempt a file with --allow-edit instead" if flag == "--unprotect" else ""))
        out.remove(d)
    return out


def _add(items: list[str], more: list[str]) -> list[str]:
    return list(dict.fromkeys([*items, *more]))


def apply_edit(goal: Goal, e: GoalEdit) -> Goal:
    """The edited copy of ``goal`` (pure; validated like a new goal). ``goal`` is not changed."""
    data = copy.deepcopy(goal.dump())
    if e.objective is not None:
        if not e.objective.strip():
            raise ConfigError("--objective: the objective cannot be empty")
        data["objective"] = e.objective
    g = data["guards"]
    g["protectedPaths"] = _add(_remove(g["protectedPaths"], e.unprotect, "--unprotect", "--protect globs"),
                               e.protect)
    g["allowEdit"] = _add(_remove(g["allowEdit"], e.disallow_edit, "--disallow-edit", "--allow-edit globs"),
                          e.allow_edit)
    g["checkOutputs"] = _add(g["checkOutputs"], e.check_outputs)
    m = data["maker"]
    if e.maker_argv is not None:
        m["argv"] = list(e.maker_argv)
    if e.maker_model is not None:
        m["model"] = e.maker_model or None
    if e.maker_timeout is not None:
        m["timeout"] = e.maker_timeout
    if e.sandbox is not None:
        m["sandbox"] = e.sandbox
    opts = {k: v for k, v in m["options"].items() if k not in e.drop_maker_options}
    missing = [k for k in e.drop_maker_options if k not in m["options"]]
    if missing:
        raise ConfigError(f"--drop-maker-option {missing[0]!r}: the maker has no such option "
                          f"({', '.join(m['options']) or 'none set'})")
    opts.update(e.maker_options)  # typed by the caller for this maker (adapters sit above this package)
    m["options"] = opts
    if e.oracle_options:
        data["oracle"]["options"] = {**data["oracle"]["options"], **e.oracle_options}
    env = {k: v for k, v in data["conditionEnv"].items() if k not in e.drop_check_env}
    refuse_secret_env(e.check_env)
    env.update(e.check_env)
    data["conditionEnv"] = env
    if e.budget:
        try:
            b = Budget.model_validate({**goal.budget.model_dump(), **e.budget})
        except ValidationError as err:  # name the flag the user typed, not the model's field
            first = err.errors()[0]
            key = re.sub(r"(?<!^)(?=[A-Z])", "_", str(first["loc"][0]) if first["loc"] else "").lower()
            raise ConfigError(f"--{key.replace('_', '-')} {e.budget.get(key)!r}: "
                              f"{str(first['msg']).removeprefix('Value error, ')}") from None
        data["budget"] = b.dump()
    if e.touches_conditions():
        conds = _drop_conditions(list(goal.stopping_conditions), e.drop_until) + list(e.until)
        data["stoppingConditions"] = [c.dump() for c in conds]
    out = Goal.model_validate(data)
    check_rules(out)
    return out


def _changes(before: Goal, after: Goal) -> list[dict[str, Any]]:
    a, b = before.dump(), after.dump()
    out: list[dict[str, Any]] = []
    for key in EDITABLE:
        old, new = a.get(key), b.get(key)
        if old == new:
            continue
        if isinstance(old, dict) and isinstance(new, dict) and key != "conditionEnv":
            for sub in sorted(set(old) | set(new)):
                if old.get(sub) != new.get(sub):
                    out.append({"key": f"{key}.{sub}", "before": old.get(sub), "after": new.get(sub)})
        else:
            out.append({"key": key, "before": old, "after": new})
    return out


def _refuse_state(goal: Goal, e: GoalEdit) -> None:
    gid = goal.goal_id
    again = f"`goalkeeper goal edit {gid} --as-new ...` starts a new goal with the same settings and your changes"
    if goal.state in ("converged", "failed"):
        word = "converged: its verdict is sealed" if goal.state == "converged" else "was abandoned"
        raise ConfigError(f"goal {gid} {word}; {again}")
    esc = goal.escalation
    if goal.state == "escalated" and (esc is None or esc.reason != "budget_exhausted"):
        why = esc.reason if esc else "unknown"
        raise ConfigError(f"goal {gid} escalated ({why}); its history ends in that escalation, so it would "
                          f"escalate again at once; {again}")
    if e.touches_conditions() and goal.baseline_at is not None:
        raise ConfigError(f"goal {gid} took its baseline with its current stopping conditions (every later check is "
                          f"compared with that reference run), so they cannot change in place; {again}")
    if e.objective is not None:
        raise ConfigError(f"goal {gid}: the objective is what the goal is; {again}")


def _newly_protected(before: Goal, after: Goal, root: Path | None) -> tuple[str, ...]:
    """Files the workspace already changed since the baseline that the edited guards would now protect."""
    if before.baseline_at is None or not before.baseline.get("sealDigest"):
        return ()
    ws = Path(before.workspace or os.getcwd())
    if not ws.is_dir():
        return ()
    from .protect import protected_findings
    from .seal import Seal

    seal = Seal(before, ws.resolve(), (root or home()).resolve())
    base, now = seal.baseline_tree, seal.walk()
    auto = list(seal.data().get("autoProtect") or [])

    def flagged(g: Goal) -> set[str]:
        gd = g.guards
        return {f.path for f in protected_findings(base, now, protect=[*gd.protected_paths, *auto],
                                                   tests=gd.test_paths, allow=gd.allow_edit)}

    return tuple(sorted(flagged(after) - flagged(before)))


def edit_goal(goal_id: str, e: GoalEdit, *, force: bool = False, dry_run: bool = False,
              root: Path | None = None) -> EditResult:
    """Apply ``e`` to a goal that is not running, as one signed ``goal.edited`` event."""
    lock = gstore.goal_lock(goal_id, root)
    try:
        lock.acquire()
    except LockedError:
        raise ConfigError(f"goal {goal_id} is running; pause it (`goalkeeper goal pause {goal_id}`) and edit it once "
                          "the loop has stopped (`goalkeeper goal status` says when)") from None
    try:
        goal, _ = audited_goal(goal_id, root)
        _refuse_state(goal, e)
        edited = apply_edit(goal, e)
        changes = _changes(goal, edited)
        if not changes:
            raise ConfigError(f"goal {goal_id}: the edit changes nothing (see `goalkeeper goal edit --help`)")
        newly = _newly_protected(goal, edited, root) if e.touches_guards() else ()
        if newly and not force:
            more = f" and {len(newly) - 8} more" if len(newly) > 8 else ""
            raise ConfigError(
                f"goal {goal_id}: the workspace already changed {', '.join(newly[:8])}{more} since the goal's "
                "baseline, and the edited guards would protect them, so the next iteration would be rejected as "
                "tampering; exempt them with --allow-edit, or pass --force to apply the edit anyway")
        reopened = (goal.state == "escalated" and "budget" in {c["key"].split(".")[0] for c in changes})
        if reopened:
            edited.state, edited.escalation = "paused", None
        if dry_run:
            return EditResult(edited, changes, reopened, newly)
        extra: dict[str, Any] = {"changes": changes}
        if reopened:
            extra["reopened"] = True
        if newly:
            extra["forced"] = list(newly[:50])
        commit_goal(edited, "goal.edited", root, **extra)
        return EditResult(edited, changes, reopened, newly, done=True)
    finally:
        lock.release()


def copy_as_new(goal_id: str, e: GoalEdit, *, dry_run: bool = False, root: Path | None = None) -> EditResult:
    """A new goal with ``goal_id``'s settings and ``e`` applied; the old goal is closed as replaced."""
    from .lifecycle import create_goal

    lock = gstore.goal_lock(goal_id, root)
    try:
        lock.acquire()
    except LockedError:
        raise ConfigError(f"goal {goal_id} is running; pause it (`goalkeeper goal pause {goal_id}`) before "
                          "replacing it") from None
    try:
        old, _ = audited_goal(goal_id, root)
        draft = apply_edit(old, e)
        changes = _changes(old, draft)
        if dry_run:
            return EditResult(draft, changes, replaced=goal_id)
        new = create_goal(
            draft.objective, list(draft.stopping_conditions), budget=draft.budget, maker=draft.maker,
            oracle=draft.oracle, guards=draft.guards, workspace=draft.workspace,
            source={"editedFrom": goal_id}, root=root, condition_env=dict(draft.condition_env),
        )
        if old.state in ("active", "paused"):
            old.state = "failed"
            old.escalation = Escalation(reason="manual", detail=f"replaced by {new.goal_id} (goal edit --as-new)",
                                        at=now_iso())
            commit_goal(old, "goal.abandoned", root, replacedBy=new.goal_id)
        elif old.escalation and old.escalation.triage_id:
            with contextlib.suppress(OSError, GoalkeeperError):  # the new goal exists; a bad item must not undo it
                triage.set_status(old.escalation.triage_id, "acted", promoted_goal=new.goal_id, root=root,
                                  note=f"replaced by {new.goal_id} (goal edit --as-new)")
        return EditResult(new, changes, replaced=goal_id, done=True)
    finally:
        lock.release()


# --- delete and prune ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Deleted:
    goal_id: str
    state: str
    removed: tuple[str, ...]
    tombstone: dict[str, Any]
    done: bool = False


def _tombstones(root: Path | None) -> Path:
    return gstore.goals_dir(root) / "tombstones.jsonl"


def tombstone_of(goal_id: str, root: Path | None = None) -> dict[str, Any] | None:
    """The signed tombstone of a deleted goal (None: never deleted, or the record fails its signature)."""
    key = ledger.key_for(root)
    found = None
    with contextlib.suppress(GoalkeeperError, OSError):
        for rec in read_jsonl(_tombstones(root), root=root or home()):
            if rec.get("goalId") == goal_id and rec.get("mac") == ledger.sign(key, rec):
                found = rec
    return found


def _paths(goal_id: str, root: Path | None) -> list[Path]:
    d = gstore.goals_dir(root)
    return [(root or home()) / "checkpoints" / f"{goal_id}.git", d / f"{goal_id}.logs",
            d / f"{goal_id}.seal.json", d / f"{goal_id}.request", d / f"{goal_id}.alive", d / f"{goal_id}.makers",
            d / f"{goal_id}.events.jsonl", d / f"{goal_id}.json"]


def _unlink_any(path: Path, root: Path) -> bool:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
        return True
    try:
        remove_file(path, root=root)
    except FileNotFoundError:
        return False
    return True


def delete_goal(goal_id: str, *, force: bool = False, dry_run: bool = False, root: Path | None = None) -> Deleted:
    """Remove a goal that is not running (see the module docstring for what goes and what stays)."""
    base = root or home()
    check_id("goal", goal_id)
    if not gstore.goal_exists(goal_id, root):
        return _finish_deleted(goal_id, dry_run, root)
    lock = gstore.goal_lock(goal_id, root)
    try:
        lock.acquire()
    except LockedError:
        raise ConfigError(f"goal {goal_id} is running; stop it first (`goalkeeper goal pause {goal_id}`, or "
                          f"`goalkeeper goal abandon {goal_id}`), then delete it") from None
    try:
        try:
            goal: Goal | None = load_goal(goal_id, root)
            problem = None
        except CorruptStateError as e:  # damaged or changed outside goalkeeper: still deletable
            goal, problem = None, str(e)
        if problem and not force:
            raise ConfigError(f"goal {goal_id} cannot be read ({problem}); pass --force to delete it anyway")
        saved = [str(x.get("name")) for x in (goal.source.get("saved", []) if goal else []) if isinstance(x, dict)]
        if saved and not force:
            raise ConfigError(
                f"goal {goal_id} keeps {len(saved)} tree(s) saved before a rollback ({', '.join(saved)}), and "
                f"deleting the goal deletes them; get one back first with `goalkeeper goal rollback {goal_id} "
                f"--to {saved[-1]}`, or pass --force")
        chain = ledger.verify_chain(goal_id, root)
        seq, head = chain.head
        stone: dict[str, Any] = {
            "ts": now_iso(), "goalId": goal_id, "event": "goal.deleted",
            "state": goal.state if goal else "damaged", "objective": goal.objective if goal else None,
            "workspace": goal.workspace if goal else None, "iterations": len(goal.history) if goal else None,
            "spentDollars": goal.spent_dollars() if goal else None, "headSeq": seq, "headHash": head,
            "savedTrees": saved,
        }
        present = [p for p in _paths(goal_id, root) if os.path.lexists(p)]
        if dry_run:
            return Deleted(goal_id, stone["state"], tuple(str(p) for p in present), stone)
        if tombstone_of(goal_id, root) is None:  # a second delete after a crash adds no second stone
            stone["mac"] = ledger.sign(ledger.key_for(root), stone)
            append_jsonl(_tombstones(root), stone, root=base)
        removed = [str(p) for p in _paths(goal_id, root) if _unlink_any(p, base)]
        with contextlib.suppress(FileNotFoundError):
            remove_file(gstore.goals_dir(root) / f"{goal_id}.lock", root=base)
        return Deleted(goal_id, stone["state"], tuple(removed), stone, done=True)
    finally:
        lock.release()


def _finish_deleted(goal_id: str, dry_run: bool, root: Path | None) -> Deleted:
    """A goal file that is gone: finish a delete a crash interrupted, or say it was deleted."""
    stone = tombstone_of(goal_id, root)
    if stone is None:
        load_goal(goal_id, root)  # raises NotFoundError in the usual words
        raise AssertionError("unreachable")
    left = [p for p in [*_paths(goal_id, root), gstore.goals_dir(root) / f"{goal_id}.lock"] if os.path.lexists(p)]
    if not left:
        raise NotFoundError(f"goal {goal_id} was already deleted ({stone.get('ts')}; it was {stone.get('state')})")
    if not dry_run:
        left = [p for p in left if _unlink_any(p, root or home())]
    return Deleted(goal_id, str(stone.get("state")), tuple(str(p) for p in left), stone, done=not dry_run)


def prune_candidates(older_than: str, states: tuple[str, ...], *, now: float | None = None,
                     root: Path | None = None) -> list[Goal]:
    """Goals in one of ``states`` whose last change is older than ``older_than`` ('30d', '12h', seconds)."""
    import time
    from datetime import datetime

    from .persist import list_goals

    age = parse_duration(older_than)
    if age is None or age <= 0:
        raise ConfigError(f"--older-than {older_than!r}: give a positive age such as 30d, 12h or 90m")
    cutoff = (time.time() if now is None else now) - age
    out = []
    for g in list_goals(root):
        stamp = g.updated_at or g.created_at
        try:
            t = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() if stamp else None
        except ValueError:
            t = None
        if g.state in states and t is not None and t < cutoff:
            out.append(g)
    return out
