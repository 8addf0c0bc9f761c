"""Where goals live on disk: ``<home>/goals/<goalId>.json`` plus its event log, lock and requests.

Raw files only; the goal model and its migrations live in ``goalkeeper.convergence``.
Another terminal asks a running loop to pause or abandon by dropping a request
file next to the goal, because only the loop that holds the lock writes the goal.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Literal

from ..errors import CorruptStateError, NotFoundError
from .atomic import append_jsonl, read_json, read_jsonl, write_json_atomic, write_text_atomic
from .home import home, now_iso
from .lock import FileLock

__all__ = [
    "ControlRequest",
    "append_event",
    "clear_request",
    "goal_lock",
    "goal_path",
    "goals_dir",
    "list_goal_ids",
    "read_events",
    "read_goal_data",
    "read_request",
    "request_control",
    "write_goal_data",
]

ControlRequest = Literal["pause", "abandon"]


def goals_dir(root: Path | None = None) -> Path:
    return (root or home()) / "goals"


def goal_path(goal_id: str, root: Path | None = None) -> Path:
    return goals_dir(root) / f"{goal_id}.json"


def _side(goal_id: str, suffix: str, root: Path | None) -> Path:
    return goals_dir(root) / f"{goal_id}.{suffix}"


def read_goal_data(goal_id: str, root: Path | None = None) -> dict[str, Any]:
    p = goal_path(goal_id, root)
    try:
        data = read_json(p)
    except FileNotFoundError:
        raise NotFoundError(f"no goal {goal_id!r} in {goals_dir(root)}; list them with `goalkeeper goal list`") from None
    if not isinstance(data, dict):
        raise CorruptStateError(f"{p}: a goal file must hold a JSON object")
    return data


def write_goal_data(goal_id: str, data: dict[str, Any], root: Path | None = None) -> Path:
    p = goal_path(goal_id, root)
    write_json_atomic(p, data)
    return p


def list_goal_ids(root: Path | None = None) -> list[str]:
    d = goals_dir(root)
    if not d.exists():
        return []
    return sorted(p.name[: -len(".json")] for p in d.glob("goal-*.json") if p.name.count(".") == 1)


def append_event(goal_id: str, event: str, root: Path | None = None, **fields: Any) -> dict[str, Any]:
    record = {"ts": now_iso(), "goalId": goal_id, "event": event, **fields}
    append_jsonl(_side(goal_id, "events.jsonl", root), record)
    return record


def read_events(goal_id: str, root: Path | None = None) -> list[dict[str, Any]]:
    return list(read_jsonl(_side(goal_id, "events.jsonl", root)))


def goal_lock(goal_id: str, root: Path | None = None) -> FileLock:
    return FileLock(_side(goal_id, "lock", root), what=f"goal {goal_id}")


def request_control(goal_id: str, request: ControlRequest, root: Path | None = None) -> Path:
    p = _side(goal_id, "request", root)
    write_text_atomic(p, request + "\n")
    return p


def read_request(goal_id: str, root: Path | None = None) -> ControlRequest | None:
    p = _side(goal_id, "request", root)
    try:
        text = p.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    if text == "pause":
        return "pause"
    if text == "abandon":
        return "abandon"
    return None


def clear_request(goal_id: str, root: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(_side(goal_id, "request", root))
