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

from ..errors import CorruptStateError
from ..store import goals as gstore
from ..store.atomic import validated
from ..store.home import now_iso
from .goal import LEGACY_PROTECTED, SCHEMA_VERSION, ConditionResult, Escalation, Goal, Iteration
from .protect import DEFAULT_TESTS

__all__ = ["MIGRATIONS", "list_goals", "load_goal", "migrate", "save_goal"]

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
    for target, _name, fn in MIGRATIONS:
        if version < target:
            data = fn(data)
            version = target
    return data


def load_goal(goal_id: str, root: Path | None = None) -> Goal:
    data = migrate(gstore.read_goal_data(goal_id, root))
    return validated(Goal, data, gstore.goal_path(goal_id, root))


def save_goal(goal: Goal, root: Path | None = None) -> Goal:
    """Write the goal atomically, stamping ``updatedAt`` on it."""
    goal.updated_at = now_iso()
    gstore.write_goal_data(goal.goal_id, goal.dump(), root)
    return goal


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
