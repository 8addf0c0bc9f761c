"""The triage inbox: escalations from runs, goals and heartbeats wait here for a human.

One JSON file per item (plus the Markdown report) under ``<home>/triage/``. An
item's path always comes from its checked id, never from the ``id`` field of a
file (a planted item cannot steer a write elsewhere).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import CorruptStateError, NotFoundError
from .atomic import read_json, write_json_atomic, write_text_atomic
from .home import home, new_id, now_iso
from .ids import check_id, existing_ids
from .safe import MAX_STATE_BYTES, read_bounded

__all__ = ["TriageItem", "TriageStatus", "file_item", "get_item", "list_items", "set_status"]

TriageStatus = Literal["pending", "acted", "dismissed", "deferred"]


class TriageItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

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
) -> TriageItem:
    item = get_item(item_id, root)
    item = TriageItem.model_validate(  # validated, so a bad status never reaches the disk
        {
            **item.model_dump(),
            "status": status,
            "updated": now_iso(),
            "note": note if note is not None else item.note,
            "promoted_goal": promoted_goal or item.promoted_goal,
        }
    )
    write_json_atomic(_path(item_id, root), item.model_dump(mode="json"), root=root or home())
    return item
