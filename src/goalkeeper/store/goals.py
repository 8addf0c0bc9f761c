"""Where goals live on disk: ``<home>/goals/<goalId>.json`` plus its event log, lock and requests.

Raw files only; the goal model and its migrations live in ``goalkeeper.convergence``.
Another terminal asks a running loop to pause or abandon by dropping a request
file next to the goal, because only the loop that holds the lock writes the goal.

Every function checks the goal id against its pattern before it builds a path
(an id is a name, never a path), and every file is opened without following a
link below the home.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any, Literal

from ..errors import CorruptStateError, IntegrityError, NotFoundError
from .atomic import append_jsonl, read_json, read_jsonl, write_json_atomic, write_text_atomic
from .home import home, now_iso
from .ids import check_id, existing_ids
from .lock import FileLock
from .safe import is_regular, read_bounded, remove_file

__all__ = [
    "ControlRequest",
    "append_event",
    "clear_request",
    "goal_exists",
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
    return goals_dir(root) / f"{check_id('goal', goal_id)}.json"


def _side(goal_id: str, suffix: str, root: Path | None) -> Path:
    return goals_dir(root) / f"{check_id('goal', goal_id)}.{suffix}"


def _missing(goal_id: str, root: Path | None) -> NotFoundError:
    return NotFoundError(f"no goal {goal_id!r} in {goals_dir(root)}; list them with `goalkeeper goal list`")


def goal_exists(goal_id: str, root: Path | None = None) -> bool:
    """A regular goal file exists (a link or a FIFO in its place does not count)."""
    return is_regular(goal_path(goal_id, root), root or home())


_MAC = re.compile(r"[0-9a-f]{64}")


def read_goal_data(goal_id: str, root: Path | None = None) -> dict[str, Any]:
    """The raw goal file. Goalkeeper writes it atomically and signed, so a file that does not parse,
    holds another id or a signature of another shape was not written by it: an ``IntegrityError``,
    which ``audited_goal(repair=True)`` answers by rebuilding the goal from its signed event log (a
    host that breaks the file must not escape its goal's Stop hook)."""
    p = goal_path(goal_id, root)
    try:
        data = read_json(p, root=root or home())
    except FileNotFoundError:
        raise _missing(goal_id, root) from None
    except IntegrityError:
        raise
    except CorruptStateError as e:
        raise IntegrityError(str(e)) from None
    if not isinstance(data, dict):
        raise IntegrityError(f"{p}: a goal file must hold a JSON object; the file was left untouched")
    own = data.get("goalId", goal_id)
    if own != goal_id:  # a planted or copied file: its id would steer later writes elsewhere
        raise IntegrityError(f"{p}: holds goalId {own!r}, not {goal_id!r}; the file was left untouched "
                             "— rename it to match its goalId or remove it")
    mac = data.get("mac")
    if mac is not None and not (isinstance(mac, str) and _MAC.fullmatch(mac)):
        raise IntegrityError(f"{p}: its signature (mac) is not one goalkeeper writes (64 hex digits); "
                             "`goalkeeper goal run ID` rebuilds the goal from its signed event log")
    return data


def write_goal_data(goal_id: str, data: dict[str, Any], root: Path | None = None) -> Path:
    p = goal_path(goal_id, root)
    write_json_atomic(p, data, root=root or home())
    return p


def list_goal_ids(root: Path | None = None) -> list[str]:
    return sorted(existing_ids("goal", root))


def append_event(goal_id: str, event: str, root: Path | None = None, **fields: Any) -> dict[str, Any]:
    record = {"ts": now_iso(), "goalId": goal_id, "event": event, **fields}
    append_jsonl(_side(goal_id, "events.jsonl", root), record, root=root or home())
    return record


def read_events(goal_id: str, root: Path | None = None) -> list[dict[str, Any]]:
    return list(read_jsonl(_side(goal_id, "events.jsonl", root), root=root or home()))


def goal_lock(goal_id: str, root: Path | None = None) -> FileLock:
    """The goal's lock. The goal must exist: no lock file is created for an unknown id."""
    if not goal_exists(goal_id, root):
        raise _missing(goal_id, root)
    return FileLock(_side(goal_id, "lock", root), what=f"goal {goal_id}", root=root or home())


def request_control(goal_id: str, request: ControlRequest, root: Path | None = None) -> Path:
    if not goal_exists(goal_id, root):
        raise _missing(goal_id, root)
    p = _side(goal_id, "request", root)
    write_text_atomic(p, request + "\n", root=root or home())
    return p


def read_request(goal_id: str, root: Path | None = None) -> ControlRequest | None:
    p = _side(goal_id, "request", root)
    try:
        text = read_bounded(p, limit=64, root=root or home()).decode("utf-8", errors="replace").strip()
    except FileNotFoundError:
        return None
    if text == "pause":
        return "pause"
    if text == "abandon":
        return "abandon"
    return None


def clear_request(goal_id: str, root: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        remove_file(_side(goal_id, "request", root), root=root or home())
