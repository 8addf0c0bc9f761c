"""Crash-safe files: atomic JSON replace and an append-only JSONL log.

A state file is written to a temp file in the same folder, fsynced, then renamed
over the old one, so a ``kill -9`` at any instant leaves either the old or the
new file, never half of one. Reads are bounded and checked (see ``safe`` and
``decode``): a damaged, huge, linked or non-regular file is a
``CorruptStateError`` naming the file, never a hang, a crash or a blow-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import CorruptStateError
from .decode import Problem, decode_json, decode_yaml, json_text
from .redact import redact, redact_obj
from .safe import (
    MAX_LOG_BYTES,
    MAX_STATE_BYTES,
    PRIVATE_FILE,
    USER_FILE,
    Refuse,
    append_bytes,
    read_bounded,
    write_bytes_atomic,
)

__all__ = [
    "PRIVATE_FILE",
    "USER_FILE",
    "append_jsonl",
    "read_data",
    "read_json",
    "read_jsonl",
    "validated",
    "write_json_atomic",
    "write_text_atomic",
]

_KEEP = "the file was left untouched — restore it from the event log or remove it"


def write_text_atomic(path: str | Path, text: str, *, mode: int = PRIVATE_FILE,
                      root: str | Path | None = None) -> None:
    """Replace ``path`` with ``text``. ``mode=USER_FILE`` for files the user asked for
    (specs, builds, exports: the umask decides); the default 0600 is for the home.

    Home files are redacted here, at the one place every state write passes, so
    no caller can forget it: a credential value from the environment or a
    well-known key shape never reaches the home's disk."""
    if mode == PRIVATE_FILE:
        text = redact(text)
    write_bytes_atomic(path, text.encode("utf-8", errors="surrogateescape"), mode=mode, root=root)


def write_json_atomic(path: str | Path, data: Any, *, mode: int = PRIVATE_FILE,
                      root: str | Path | None = None) -> None:
    # Redact the values, not the serialised text: a pattern must never cut through JSON syntax.
    if mode == PRIVATE_FILE:
        data = redact_obj(data)
    text = json_text(data, indent=2) + "\n"
    write_bytes_atomic(path, text.encode("utf-8", errors="surrogateescape"), mode=mode, root=root)


def read_json(path: str | Path, *, limit: int = MAX_STATE_BYTES, root: str | Path | None = None) -> Any:
    """Read a JSON state file; a damaged one raises ``CorruptStateError`` and is left as is.

    The file must be a regular file under ``limit`` bytes; under the home no link
    is followed. JSON nesting, duplicate-free numbers and digits are bounded.
    """
    p = Path(path)
    raw = read_bounded(p, limit=limit, root=root)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CorruptStateError(f"{p}: not UTF-8 text (byte {e.start}); {_KEEP}") from None
    data, problem = decode_json(text)
    if problem is not None:
        line = f":{problem.line}" if problem.line else ""
        where = f" at {problem.path}" if problem.path else ""
        raise CorruptStateError(f"{p}{line}: {problem.message}{where}; {_KEEP}")
    return data


def _where(problem: Problem, lines: dict[str, int] | None = None) -> str:
    at = problem.line or (lines or {}).get(problem.path)
    line = f"line {at}: " if at else ""
    return f"{line}{problem.path}: {problem.message}" if problem.path else f"{line}{problem.message}"


def read_data(path: str | Path, *, refuse: Refuse, limit: int = MAX_STATE_BYTES, json_only: bool = False,
              follow_symlinks: bool = True) -> Any:
    """A YAML or JSON file the user points goalkeeper at (a heartbeat config, an answers
    file): bounded, regular, decoded with limits; any problem is ``refuse(message)`` with
    the line and key path. ``FileNotFoundError`` passes through."""
    raw = read_bounded(path, limit=limit, follow_symlinks=follow_symlinks, refuse=refuse)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise refuse(f"not UTF-8 text (byte {e.start})") from None
    if json_only or str(path).lower().endswith(".json"):
        data, problem = decode_json(text, finite=True)
        if problem is not None:
            raise refuse(_where(problem))
        return data
    res = decode_yaml(text, lines=True, finite=True)
    if res.problems:
        raise refuse(_where(res.problems[0], res.lines))
    return res.data


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], data: Any, path: str | Path) -> M:
    """``data`` as ``model``; a mismatch is a ``CorruptStateError`` naming the file and key."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "<root>"
        raise CorruptStateError(f"{path}: {where}: {first['msg']}; the file was left untouched — restore it "
                                "from the event log or remove it") from None
    except RecursionError:  # nesting no model needs
        raise CorruptStateError(f"{path}: nested too deeply; the file was left untouched") from None


def append_jsonl(path: str | Path, record: Any, *, root: str | Path | None = None) -> None:
    """Append one record (redacted); the log is private (0600) and never written through a link."""
    append_bytes(path, (json_text(redact_obj(record)) + "\n").encode("utf-8", errors="surrogateescape"), root=root)


def _torn(lines: list[str], i: int) -> bool:
    # append_jsonl adds a newline after a torn fragment, so a bad line followed by good ones
    # is a crash artefact when it is the fragment of an unfinished object.
    return lines[i].lstrip().startswith("{") and not lines[i].rstrip().endswith("}")


def read_jsonl(path: str | Path, *, limit: int = MAX_LOG_BYTES,
               root: str | Path | None = None) -> Iterator[dict[str, Any]]:
    """Records of a JSONL log. A torn last line (crash mid-append) is skipped."""
    p = Path(path)
    try:
        raw = read_bounded(p, limit=limit, root=root)
    except FileNotFoundError:
        return
    # Split on "\n" only, as the appender writes (str.splitlines would also split on \x0c, \u2028...).
    parts = raw.decode("utf-8", errors="replace").split("\n")
    lines = [s + "\n" for s in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        rec, problem = decode_json(line)
        if problem is not None:
            if i == len(lines) - 1 or not line.endswith("\n") or _torn(lines, i):
                continue  # a write torn by a crash; later appends start on a new line
            raise CorruptStateError(f"{p}:{i + 1}: not a JSON line ({problem.message}); {_KEEP}")
        if isinstance(rec, dict):
            yield rec
