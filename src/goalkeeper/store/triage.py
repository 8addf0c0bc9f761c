"""The triage inbox: escalations from runs, goals and heartbeats wait here for a human.

One JSON file per item (plus the Markdown report) under ``<home>/triage/``. An
item's path always comes from its checked id, never from the ``id`` field of a
file (a planted item cannot steer a write elsewhere).

Items are closed by a human (``acted``, ``dismissed``, one by one or in bulk with
:func:`dismiss_matching`) or by the world: when a later goal converges or a later
run reaches its goal *from the same source* (the same goal, the same spec, or the
same workspace with the item's stopping conditions among those that now pass),
:func:`resolve_by` marks the open items ``resolved`` and says by what.

On disk the keys are snake_case (the standalone runner writes the same shape);
``--json`` output uses :meth:`TriageItem.public` (camelCase, like every other
``--json`` output).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from ..errors import CorruptStateError, GoalkeeperError, NotFoundError
from .atomic import read_json, write_json_atomic, write_text_atomic
from .home import home, new_id, now_iso
from .ids import check_id, existing_ids
from .safe import MAX_STATE_BYTES, read_bounded

__all__ = [
    "OPEN",
    "SOURCES",
    "TriageItem",
    "TriageStatus",
    "dismiss_matching",
    "file_item",
    "get_item",
    "list_items",
    "matches",
    "resolve_by",
    "set_status",
    "sources_summary",
]

TriageStatus = Literal["pending", "acted", "dismissed", "deferred", "resolved"]
SOURCES = ("run", "goal", "heartbeat")
OPEN = ("pending", "deferred")  # items a human (or a later success) still has to close


class TriageItem(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    id: str
    created: str
    updated: str
    source: Literal["run", "goal", "heartbeat"]
    source_id: str
    severity: Literal["info", "warning", "critical"] = "warning"
    reason: str
    summary: str
    context: dict[str, Any] = Field(default_factory=dict)
    suggested_actions: list[str] = Field(default_factory=list)
    status: TriageStatus = "pending"
    note: str | None = None
    promoted_goal: str | None = None
    resolved_by: dict[str, Any] | None = Field(
        default=None, description="what closed it on its own: {kind: goal|run, id, at}")

    def public(self) -> dict[str, Any]:
        """The item as ``--json`` shows it: camelCase keys, the context's own top-level keys too
        (a run's ``gap_facts`` is ``gapFacts``; maps below them keep the spec's fact names)."""
        out = self.model_dump(mode="json", by_alias=True)
        out["context"] = {to_camel(k): v for k, v in out["context"].items()}
        return out


def triage_dir(root: Path | None = None) -> Path:
    return (root or home()) / "triage"


def file_item(
    *,
    source: Literal["run", "goal", "heartbeat"],
    source_id: str,
    reason: str,
    summary: str,
    context: dict[str, Any] | None = None,
    suggested_actions: list[str] | None = None,
    severity: Literal["info", "warning", "critical"] = "warning",
    markdown: str | None = None,
    root: Path | None = None,
) -> TriageItem:
    ts = now_iso()
    item = TriageItem(
        id=new_id("tri"),
        created=ts,
        updated=ts,
        source=source,
        source_id=source_id,
        severity=severity,
        reason=reason,
        summary=summary,
        context=context or {},
        suggested_actions=suggested_actions or [],
    )
    base = root or home()
    if markdown is not None:
        write_text_atomic(_path(item.id, root, "md"), markdown, root=base)
    write_json_atomic(_path(item.id, root), item.model_dump(mode="json"), root=base)
    return item


def _path(item_id: str, root: Path | None, suffix: str = "json") -> Path:
    return triage_dir(root) / f"{check_id('triage', item_id)}.{suffix}"


def _load(item_id: str, root: Path | None) -> TriageItem:
    path = _path(item_id, root)
    try:
        item = TriageItem.model_validate(read_json(path, root=root or home()))
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "<root>"
        raise CorruptStateError(f"{path}: not a valid triage item: {where}: {first['msg']}; the file was "
                                "left untouched — remove it if it is not needed") from None
    if item.id != item_id:
        raise CorruptStateError(f"{path}: holds id {item.id!r}, not {item_id!r}; the file was left untouched "
                                "— rename it to match its id or remove it")
    return item


def get_item(item_id: str, root: Path | None = None) -> TriageItem:
    try:
        return _load(item_id, root)
    except FileNotFoundError:
        raise NotFoundError(f"no triage item {item_id!r}; list them with `goalkeeper triage list`") from None


def markdown_of(item_id: str, root: Path | None = None) -> str | None:
    try:
        raw = read_bounded(_path(item_id, root, "md"), limit=MAX_STATE_BYTES, root=root or home())
    except FileNotFoundError:
        return None
    return raw.decode("utf-8", errors="replace")


def list_items(
    root: Path | None = None, status: str | None = None, broken: list[tuple[str, str]] | None = None
) -> list[TriageItem]:
    """Valid items; a damaged file is skipped (and reported in ``broken``), never fatal."""
    items = []
    for item_id in sorted(existing_ids("triage", root)):
        try:
            items.append(_load(item_id, root))
        except CorruptStateError as e:
            if broken is not None:
                broken.append((item_id, str(e)))
    if status:
        items = [i for i in items if i.status == status]
    return sorted(items, key=lambda i: i.created)


def set_status(
    item_id: str, status: TriageStatus, *, note: str | None = None,
    promoted_goal: str | None = None, root: Path | None = None,
    resolved_by: dict[str, Any] | None = None,
) -> TriageItem:
    item = get_item(item_id, root)
    item = TriageItem.model_validate(  # validated, so a bad status never reaches the disk
        {
            **item.model_dump(),
            "status": status,
            "updated": now_iso(),
            "note": note if note is not None else item.note,
            "promoted_goal": promoted_goal or item.promoted_goal,
            "resolved_by": resolved_by or item.resolved_by,
        }
    )
    write_json_atomic(_path(item_id, root), item.model_dump(mode="json"), root=root or home())
    return item


def matches(item: TriageItem, *, source: str | None = None, source_id: str | None = None,
            reason: str | None = None) -> bool:
    """``item`` is open and fits every filter given (None: any)."""
    return (item.status in OPEN and (source is None or item.source == source)
            and (source_id is None or item.source_id == source_id)
            and (reason is None or item.reason == reason))


def dismiss_matching(*, source: str | None = None, source_id: str | None = None, reason: str | None = None,
                     note: str | None = None, dry_run: bool = False,
                     root: Path | None = None) -> list[TriageItem]:
    """Dismiss every open item that fits the filters (no filter: every open item); returns them.

    Damaged item files are skipped (``triage list`` reports them), never fatal.
    """
    if source is not None and source not in SOURCES:
        raise NotFoundError(f"unknown triage source {source!r}; sources are {', '.join(SOURCES)}")
    found = [i for i in list_items(root) if matches(i, source=source, source_id=source_id, reason=reason)]
    if dry_run:
        return found
    return [set_status(i.id, "dismissed", note=note, root=root) for i in found]


def _argv(command: object) -> tuple[str, ...] | None:
    """A command as an argv tuple (a string is split like a shell would), or None."""
    if isinstance(command, list) and all(isinstance(x, str) for x in command):
        return tuple(command)
    if isinstance(command, str):
        try:
            return tuple(shlex.split(command))
        except ValueError:
            return (command,)
    return None


def _conditions(context: dict[str, Any]) -> set[tuple[str, ...]]:
    """The stopping conditions an item's context names (goal items: stoppingConditions; run items:
    until, the spec's own goal observed)."""
    out: set[tuple[str, ...]] = set()
    for c in context.get("stoppingConditions") or ():
        argv = _argv(c.get("command") if isinstance(c, dict) else c)
        if argv:
            out.add(argv)
    for c in context.get("until") or ():
        argv = _argv(c)
        if argv:
            out.add(argv)
    return out


def _same_source(item: TriageItem, kind: str, source_id: str, workspace: str | None,
                 commands: set[tuple[str, ...]], spec: str | None) -> bool:
    ctx = item.context
    if item.source == kind and item.source_id == source_id:
        return True  # the very goal (resumed with a raised budget) or run that escalated
    if kind == "goal" and ctx.get("goalId") == source_id:
        return True
    if spec is not None and item.source == "run" and ctx.get("spec") == spec:
        return True  # a later run of the same spec reached its goal
    wanted = _conditions(ctx)
    return bool(workspace and wanted and ctx.get("workspace") == workspace and wanted <= commands)


def resolve_by(kind: Literal["goal", "run"], source_id: str, *, workspace: str | None = None,
               commands: Iterable[object] = (), spec: str | None = None,
               root: Path | None = None) -> list[TriageItem]:
    """A goal converged (or a run reached its goal): close the open items it answers.

    An item is answered when it came from this same goal or run, from a run of the
    same ``spec``, or from the same ``workspace`` with all of its stopping
    conditions among ``commands`` (which just passed). Called from the loop and the
    driver after they committed their success; it never raises (a damaged or
    locked triage folder must not turn a success into an error).
    """
    argvs = {a for a in (_argv(c) for c in commands) if a}
    done: list[TriageItem] = []
    try:
        for item in list_items(root):
            if item.status in OPEN and _same_source(item, kind, source_id, workspace, argvs, spec):
                by = {"kind": kind, "id": source_id, "at": now_iso()}
                what = "converged" if kind == "goal" else "reached its goal"
                done.append(set_status(item.id, "resolved", root=root, resolved_by=by,
                                       note=f"resolved: {kind} {source_id} {what}"))
    except (GoalkeeperError, OSError):
        pass
    return done


def sources_summary(items: Sequence[TriageItem]) -> str:
    """``3 goal, 1 run`` for a list of items (used in bulk confirmations)."""
    counts: dict[str, int] = {}
    for i in items:
        counts[i.source] = counts.get(i.source, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
