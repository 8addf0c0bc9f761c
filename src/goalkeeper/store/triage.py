"""The triage inbox: escalations from runs, goals and heartbeats wait here for a human.

One JSON file per item (plus the Markdown report) under ``<home>/triage/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import CorruptStateError, NotFoundError
from .atomic import read_json, write_json_atomic, write_text_atomic
from .home import home, new_id, now_iso

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
    d = triage_dir(root)
    if markdown is not None:
        write_text_atomic(d / f"{item.id}.md", markdown)
    write_json_atomic(d / f"{item.id}.json", item.model_dump(mode="json"))
    return item


def _load(path: Path) -> TriageItem:
    try:
        return TriageItem.model_validate(read_json(path))
    except ValidationError as e:
        raise CorruptStateError(f"{path}: not a valid triage item: {e.errors()[0]['msg']}") from None


def get_item(item_id: str, root: Path | None = None) -> TriageItem:
    p = triage_dir(root) / f"{item_id}.json"
    if not p.exists():
        raise NotFoundError(f"no triage item {item_id!r}; list them with `goalkeeper triage list`")
    return _load(p)


def markdown_of(item_id: str, root: Path | None = None) -> str | None:
    p = triage_dir(root) / f"{item_id}.md"
    return p.read_text(encoding="utf-8") if p.exists() else None


def list_items(
    root: Path | None = None, status: str | None = None, broken: list[tuple[str, str]] | None = None
) -> list[TriageItem]:
    """Valid items; a damaged file is skipped (and reported in ``broken``), never fatal."""
    d = triage_dir(root)
    if not d.exists():
        return []
    items = []
    for p in sorted(d.glob("tri-*.json")):
        try:
            items.append(_load(p))
        except CorruptStateError as e:
            if broken is not None:
                broken.append((p.stem, str(e)))
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
    write_json_atomic(triage_dir(root) / f"{item.id}.json", item.model_dump(mode="json"))
    return item
