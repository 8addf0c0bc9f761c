"""Load and save goals: named schema migrations, then validation against the model.

A goal file without ``schemaVersion`` is version 0, the shape of the widely
copied goal-convergence schema; it is migrated in memory on load and written
back in the current shape by the next save. A file that still does not fit is
a :class:`~goalkeeper.errors.CorruptStateError` and is left untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import CorruptStateError, IntegrityError
from ..store import goals as gstore
from ..store.atomic import validated
from ..store.home import now_iso
from ..store.redact import redact_obj
from .goal import LEGACY_PROTECTED, SCHEMA_VERSION, ConditionResult, Escalation, Goal, Iteration
from .ledger import (
    Chain,
    evidence_gaps,
    goal_mac,
    key_for,
    line_hash,
    macs_equal,
    rebuild,
    verify_chain,
)
from .ledger import append as ledger_append
from .protect import DEFAULT_TESTS

__all__ = ["MIGRATIONS", "audited_goal", "commit_goal", "goal_fields", "list_goals", "load_goal", "migrate", "save_goal"]

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _known(model: type[Any], data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    names = {f.alias or n for n, f in model.model_fields.items()} | set(model.model_fields)
    return {k: v for k, v in data.items() if k in names}, {k: v for k, v in data.items() if k not in names}


def _m001_from_unversioned(data: dict[str, Any]) -> dict[str, Any]:
    """v0 -> v1: add schemaVersion; map loose history/escalation fields; park unknown keys."""
    out, legacy = _known(Goal, data)
    history = []
    raw = data.get("history") or []
    if not isinstance(raw, list) or not all(isinstance(h, dict) for h in raw):
        raise CorruptStateError("history must be a list of iteration objects")
    for h in raw:
        h = dict(h)
        verdict = h.get("oracleVerdict")
        if isinstance(verdict, dict):
            h.setdefault("reasons", verdict.get("reasons", []))
            h.setdefault("nextHint", verdict.get("nextHint"))
            h.setdefault("confidence", verdict.get("confidence"))
            verdict = verdict.get("converged")
        if isinstance(verdict, bool):
            h["oracleVerdict"] = "converged" if verdict else "not_converged"
        for old in ("timestamp", "completedAt", "endedAt"):
            if old in h:
                h.setdefault("finishedAt", h.pop(old))
        results = []
        for c in h.get("conditionResults") or []:
            c = dict(c)
            if "output" in c:
                c.setdefault("outputTail", str(c.pop("output"))[-2000:])
            c.setdefault("command", "")
            c.setdefault("type", "custom_command")
            c.setdefault("passed", False)
            results.append(_known(ConditionResult, c)[0])
        h["conditionResults"] = results
        h.setdefault("phase", "done")
        history.append(_known(Iteration, h)[0])
    out["history"] = history
    esc = data.get("escalation")
    if isinstance(esc, dict):
        esc = dict(esc)
        for old in ("message", "details"):
            if old in esc:
                esc.setdefault("detail", str(esc.pop(old)))
        if "timestamp" in esc:
            esc.setdefault("at", esc.pop("timestamp"))
        out["escalation"] = _known(Escalation, esc)[0]
    if isinstance(out.get("budget"), dict):
        out["budget"] = {k: v for k, v in out["budget"].items() if k in ("maxIterations", "maxDuration", "maxDollars")}
    if legacy:
        out.setdefault("source", {})["legacy"] = legacy
    out["schemaVersion"] = 1
    return out


def _m002_sealed_guards(data: dict[str, Any]) -> dict[str, Any]:
    """v1 -> v2: protected globs split into tests (may grow) and a seal (built in, plus the user's)."""
    out = dict(data)
    guards = dict(out.get("guards") or {})
    globs = guards.get("protectedPaths")
    if isinstance(globs, list):
        legacy = set(LEGACY_PROTECTED)
        guards["protectedPaths"] = [g for g in globs if g not in legacy]
        guards.setdefault("testPaths", [g for g in DEFAULT_TESTS])
    out["guards"] = guards
    if out.get("baselineAt") and not out.get("baseline"):
        # baselined without a sealed baseline (tree, toolchain, reference run): it cannot be resumed safely
        out.setdefault("source", {})["unsealedBaseline"] = True
    out["schemaVersion"] = 2
    return out


# (version it produces, name, function); applied in order to files older than each version
MIGRATIONS: list[tuple[int, str, Migration]] = [
    (1, "m001_from_unversioned", _m001_from_unversioned),
    (2, "m002_sealed_guards", _m002_sealed_guards),
]


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = data.get("schemaVersion", 0)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise CorruptStateError(
            f"goal schemaVersion {version!r} is newer than this goalkeeper understands "
            f"({SCHEMA_VERSION}); upgrade goalkeeper"
        )
    for target, name, fn in MIGRATIONS:
        if version < target:
            try:
                data = fn(data)
            except CorruptStateError:
                raise
            except (TypeError, ValueError, AttributeError, KeyError) as e:  # a damaged old file
                raise CorruptStateError(
                    f"goal file (schemaVersion {version}) cannot be migrated by {name}: {type(e).__name__}: {e}; "
                    "the file was left untouched — restore it or remove it"
                ) from None
            version = target
    return data


def load_goal(goal_id: str, root: Path | None = None) -> Goal:
    """The goal as goalkeeper last wrote it; a file whose signature fails is an ``IntegrityError``."""
    raw = gstore.read_goal_data(goal_id, root)
    mac = raw.pop("mac", None)
    version = raw.get("schemaVersion", 0)
    if mac is None and isinstance(version, int) and version >= 2:
        raise IntegrityError(
            f"{gstore.goal_path(goal_id, root)}: the goal file carries no signature, so goalkeeper did not "
            "write it; `goalkeeper goal run ID` rebuilds it from the signed event log"
        )
    if mac is not None and not macs_equal(mac, goal_mac(key_for(root), raw)):
        raise IntegrityError(
            f"{gstore.goal_path(goal_id, root)}: the goal file was changed outside goalkeeper (its signature "
            "does not match); `goalkeeper goal run ID` rebuilds it from the signed event log"
        )
    data = migrate(raw)
    return validated(Goal, data, gstore.goal_path(goal_id, root))


def save_goal(goal: Goal, root: Path | None = None) -> Goal:
    """Write the goal atomically and signed, stamping ``updatedAt`` on it."""
    goal.updated_at = now_iso()
    data = redact_obj(goal.dump())  # before signing: what is on disk is what was signed
    data["mac"] = goal_mac(key_for(root), data)
    gstore.write_goal_data(goal.goal_id, data, root)
    return goal


def audited_goal(goal_id: str, root: Path | None = None, *, repair: bool = False) -> tuple[Goal, list[str]]:
    """The goal, checked against its signed event log: signature, chain, head and evidence.

    Any problem is an :class:`IntegrityError`, unless ``repair``: then the goal
    is rebuilt from the longest valid prefix of the log (phases after it run
    again), saved, and the problems are returned.
    """
    chain = verify_chain(goal_id, root)
    problems = list(chain.problems)
    goal: Goal | None = None
    try:
        goal = load_goal(goal_id, root)
    except CorruptStateError as e:  # unsigned, forged or unreadable: the signed log is the truth
        problems.append(str(e))
    if goal is not None:
        if goal.ledger_seq > chain.head[0]:
            problems.append(f"the goal file reflects event {goal.ledger_seq} but the log ends at {chain.head[0]} "
                            "(the log was cut)")
        problems += evidence_gaps([h.dump() for h in goal.history], chain.records)
    if not problems:
        assert goal is not None
        return goal, []
    if not repair:
        raise IntegrityError(f"goal {goal_id}: " + "; ".join(problems[:3])
                             + "; `goalkeeper goal run ID` rebuilds it from the signed log")
    prefix = _valid_prefix(chain)
    rebuilt = validated(Goal, migrate(rebuild(goal_id, prefix)), gstore.goal_path(goal_id, root))
    save_goal(rebuilt, root)
    return rebuilt, problems


def _valid_prefix(chain: Chain) -> Chain:
    """The records up to the first break: only what was signed in order is believed."""
    out: list[dict[str, Any]] = []
    prev, seq = "", 0
    for rec in chain.records:
        if rec.get("seq") != seq + 1 or rec.get("prev") != prev:
            break
        out.append(rec)
        seq, prev = int(rec["seq"]), line_hash(rec)
    return Chain(out, [])


def commit_goal(goal: Goal, event: str, root: Path | None = None, record: Iteration | None = None,
                **fields: Any) -> dict[str, Any]:
    """Append the signed event (with what a replay needs), then save the state that depends on it."""
    fields["goalFields"] = goal_fields(goal)
    if record is not None:
        fields["record"] = record.dump()
    out = ledger_append(goal.goal_id, event, root, **fields)
    goal.ledger_seq = int(out["seq"])
    save_goal(goal, root)
    return out


_GOAL_FIELDS = ("state", "escalation", "elapsedSeconds", "baseline", "baselineAt", "budget", "source", "guards",
                "maker", "oracle", "stoppingConditions", "conditionEnv")


def goal_fields(goal: Goal) -> dict[str, Any]:
    d = goal.dump()
    return {k: d[k] for k in _GOAL_FIELDS}


def list_goals(root: Path | None = None, broken: list[tuple[str, str]] | None = None) -> list[Goal]:
    """Valid goals; a damaged file is skipped (and reported in ``broken``), never fatal."""
    out = []
    for g in gstore.list_goal_ids(root):
        try:
            out.append(load_goal(g, root))
        except CorruptStateError as e:
            if broken is not None:
                broken.append((g, str(e)))
    return out
