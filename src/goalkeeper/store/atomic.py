"""Crash-safe files: atomic JSON replace and an append-only JSONL log.

A state file is written to a temp file in the same folder, fsynced, then renamed
over the old one, so a ``kill -9`` at any instant leaves either the old or the
new file, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import CorruptStateError, StoreError

__all__ = ["append_jsonl", "read_json", "read_jsonl", "validated", "write_json_atomic", "write_text_atomic"]


def write_text_atomic(path: str | Path, text: str) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(p.parent)


def write_json_atomic(path: str | Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=False, default=str) + "\n")


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_json(path: str | Path) -> Any:
    """Read a JSON state file; a damaged one raises ``CorruptStateError`` and is left as is."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise
    except UnicodeDecodeError:
        raise CorruptStateError(
            f"{p}: not text (binary data); the file was left untouched — restore it or remove it"
        ) from None
    except OSError as e:
        raise StoreError(f"{p}: cannot read: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CorruptStateError(
            f"{p}:{e.lineno}: not valid JSON ({e.msg}); the file was left untouched — "
            "restore it from the event log or remove it"
        ) from None


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], data: Any, path: str | Path) -> M:
    """``data`` as ``model``; a mismatch is a ``CorruptStateError`` naming the file and key."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "<root>"
        raise CorruptStateError(f"{path}: {where}: {first['msg']}; the file was left untouched") from None


def append_jsonl(path: str | Path, record: Any) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record, sort_keys=False, default=str) + "\n").encode()
    with open(p, "a+b") as f:
        # A crash mid-append can leave a torn line without its newline: start a new line.
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                line = b"\n" + line
        f.write(line)
        f.flush()
        os.fsync(f.fileno())


def _torn(lines: list[str], i: int) -> bool:
    # append_jsonl adds a newline after a torn fragment, so a bad line followed by good ones
    # is a crash artefact when it is the fragment of an unfinished object.
    return lines[i].lstrip().startswith("{") and not lines[i].rstrip().endswith("}")


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Records of a JSONL log. A torn last line (crash mid-append) is skipped."""
    p = Path(path)
    if not p.exists():
        return
    with open(p, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            if i == len(lines) - 1 or not line.endswith("\n") or _torn(lines, i):
                continue  # a write torn by a crash; later appends start on a new line
            raise CorruptStateError(f"{p}:{i + 1}: not a JSON line") from None
        if isinstance(rec, dict):
            yield rec
