"""The on-disk store shared by runs and goals: atomic JSON, JSONL logs, locks, triage."""

from .atomic import append_jsonl, read_json, read_jsonl, write_json_atomic, write_text_atomic
from .home import home, new_id, now_iso
from .lock import FileLock
from .triage import TriageItem, file_item, get_item, list_items, set_status

__all__ = [
    "FileLock",
    "TriageItem",
    "append_jsonl",
    "file_item",
    "get_item",
    "home",
    "list_items",
    "new_id",
    "now_iso",
    "read_json",
    "read_jsonl",
    "set_status",
    "write_json_atomic",
    "write_text_atomic",
]
