"""Ids are names, never paths: the pattern check and the resolver every command uses.

A goal id looks like ``goal-k3j4h5g6``, a run id ``run-20260101T120000-ab12``, a
triage item ``tri-k3j4h5g6``: a prefix, then letters, digits, ``-`` and ``_``.
Nothing else (no ``/``, ``.``, ``..``, NUL or control character) can reach a
file name, so no id leads outside the home.

:func:`resolve_id` turns what a user typed into an existing id: the id itself,
a unique prefix of one (``goal-k3`` or just ``k3``), or ``last`` (the one whose
file changed most recently). It only lists the kind's folder; it never creates
or opens a file.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Literal

from ..errors import NotFoundError
from .home import home

__all__ = ["KINDS", "IdKind", "check_id", "existing_ids", "is_id", "resolve_id"]

IdKind = Literal["goal", "run", "triage"]

# kind -> (prefix, folder under the home, how to list them)
KINDS: dict[str, tuple[str, str, str]] = {
    "goal": ("goal", "goals", "goalkeeper goal list"),
    "run": ("run", "runs", "goalkeeper runs list"),
    "triage": ("tri", "triage", "goalkeeper triage list"),
}
_BODY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")
_EXAMPLE = {"goal": "goal-k3j4h5g6", "run": "run-20260101T120000-ab12", "triage": "tri-k3j4h5g6"}


def is_id(kind: IdKind, text: object) -> bool:
    if not isinstance(text, str) or len(text) > 100:
        return False
    prefix = KINDS[kind][0] + "-"
    return text.startswith(prefix) and _BODY.fullmatch(text[len(prefix):]) is not None


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def check_id(kind: IdKind, text: str) -> str:
    """``text`` if it is a well-formed id of ``kind``; else ``NotFoundError`` saying why."""
    if is_id(kind, text):
        return text
    what = "triage item" if kind == "triage" else kind
    raise NotFoundError(
        f"{_shown(text)} is not a {what} id ({what} ids look like {_EXAMPLE[kind]}: letters, digits, "
        f"'-' and '_', never a path); list them with `{KINDS[kind][2]}`"
    )


def _entry_id(kind: IdKind, entry: os.DirEntry[str]) -> str | None:
    # Whatever the entry is (a FIFO, a link, a folder where a file belongs): it is listed, so
    # that loading it reports the damage by name instead of hiding it.
    name = entry.name
    if kind == "run":
        rid = name
    elif name.endswith(".json") and name.count(".") == 1:
        rid = name[: -len(".json")]
    else:
        return None
    return rid if is_id(kind, rid) else None


def existing_ids(kind: IdKind, root: Path | None = None) -> dict[str, float]:
    """Every id of ``kind`` with an entry in the home, with its state file's mtime (0 when that
    is not a regular file: a damaged entry is listed, and refused when it is read)."""
    d = (root or home()) / KINDS[kind][1]
    out: dict[str, float] = {}
    try:
        it = os.scandir(d)
    except (FileNotFoundError, NotADirectoryError):
        return out
    with it:
        for entry in it:
            rid = _entry_id(kind, entry)
            if rid is None:
                continue
            try:
                st = os.lstat(os.path.join(d, rid, "state.json")) if kind == "run" else entry.stat(
                    follow_symlinks=False)
            except OSError:
                st = None
            out[rid] = st.st_mtime if st is not None and stat.S_ISREG(st.st_mode) else 0.0
    return out


def resolve_id(kind: IdKind, text: str, root: Path | None = None) -> str:
    """The existing id ``text`` names: itself, ``last``, or a unique prefix (with or without
    the ``goal-``/``run-``/``tri-`` part). ``NotFoundError`` when none or several match."""
    what = "triage item" if kind == "triage" else kind
    listing = KINDS[kind][2]
    ids = existing_ids(kind, root)
    if text == "last":
        if not ids:
            raise NotFoundError(f"no {what} yet, so `last` names nothing; list them with `{listing}`")
        return max(ids, key=lambda i: (ids[i], i))
    prefix = KINDS[kind][0] + "-"
    candidates = [c for c in ((text,) if text.startswith(prefix) else (prefix + text,)) if is_id(kind, c)]
    if not candidates:
        check_id(kind, text)  # raises: not a name
    for c in candidates:
        if c in ids:
            return c
    matches = sorted({i for i in ids for c in candidates if i.startswith(c)})
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise NotFoundError(f"{_shown(text)} matches {len(matches)} {what}s ({shown}); type more of the id")
    if is_id(kind, text):
        return text  # well-formed: the caller reports "no such ..." with its own wording
    raise NotFoundError(f"no {what} matches {_shown(text)}; list them with `{listing}`")
