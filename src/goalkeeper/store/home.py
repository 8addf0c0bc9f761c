"""Where state lives, found the way git finds ``.git``. This is the one place it is decided.

1. ``$GOALKEEPER_HOME``, when set: an explicit choice wins (CI, tests, a shared store).
2. Else the nearest ``.goalkeeper/`` folder from the current directory upwards, up to
   the repository's top level (or up to ``/`` outside a git repository). Only a
   folder owned by the current user counts, so a ``/tmp/.goalkeeper`` planted by
   someone else is never picked up.
3. Else ``.goalkeeper/`` at the workspace root: the git top level, or the current
   directory outside git. It is created (mode 0700) on the first write, and
   ``/.goalkeeper/`` is added to the repository's ``.git/info/exclude`` then, so
   it never shows up in ``git status``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import string
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["DIRNAME", "ensure_home", "git_dir", "home", "new_id", "now_iso", "seconds_since", "workspace_root"]

DIRNAME = ".goalkeeper"
_ALPHABET = string.ascii_lowercase + string.digits


def _git_marker(d: Path) -> bool:
    return os.path.lexists(d / ".git")


def workspace_root(start: Path | None = None) -> Path:
    """The git top level above ``start`` (default: the current directory), else ``start``."""
    here = (start or Path.cwd()).absolute()
    for d in (here, *here.parents):
        if _git_marker(d):
            return d
    return here


def _owned_dir(p: Path) -> bool:
    try:
        st = os.stat(p)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()


def home() -> Path:
    """The state folder for this process (see the module docstring for the order)."""
    env = os.environ.get("GOALKEEPER_HOME")
    if env:
        return Path(env)
    here = Path.cwd().absolute()
    for d in (here, *here.parents):
        if _owned_dir(d / DIRNAME):
            return d / DIRNAME
        if _git_marker(d):
            return d / DIRNAME  # the top level of the repository: state lives here
    return here / DIRNAME


def git_dir(worktree: Path) -> Path | None:
    """The folder holding ``info/exclude`` for the repository at ``worktree``."""
    dot = worktree / ".git"
    if dot.is_dir():
        return dot
    try:  # a linked worktree or submodule: ".git" is a file "gitdir: PATH"
        text = dot.read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    gd = Path(text.split(":", 1)[1].strip())
    gd = gd if gd.is_absolute() else worktree / gd
    common = gd / "commondir"
    with contextlib.suppress(OSError):  # linked worktrees share the main repository's info/
        c = Path(common.read_text(encoding="utf-8").strip())
        return c if c.is_absolute() else gd / c
    return gd


def _exclude_in_git(created: Path) -> None:
    """Add the new home to its repository's ``info/exclude`` (never to a tracked file)."""
    top = workspace_root(created.parent)
    if not _git_marker(top):
        return
    try:
        rel = created.absolute().relative_to(top)
    except ValueError:
        return
    gd = git_dir(top)
    if gd is None:
        return
    pattern = "/" + rel.as_posix() + "/"
    exclude = gd / "info" / "exclude"
    with contextlib.suppress(OSError):
        lines = exclude.read_text(encoding="utf-8", errors="replace").splitlines() if exclude.exists() else []
        if pattern in lines or pattern.rstrip("/") in lines:
            return
        exclude.parent.mkdir(parents=True, exist_ok=True)
        with open(exclude, "a", encoding="utf-8") as f:
            if lines and not exclude.read_bytes().endswith(b"\n"):
                f.write("\n")
            f.write(f"# goalkeeper state (run state, goals, triage)\n{pattern}\n")


def ensure_home(root: Path) -> Path:
    """Create ``root`` (mode 0700) if it does not exist yet; a new home inside a repository
    is added to that repository's ``.git/info/exclude``."""
    if os.path.isdir(root):
        return root
    root.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(root, 0o700)
    except FileExistsError:
        return root
    _exclude_in_git(root)
    return root


def new_id(prefix: str, n: int = 8) -> str:
    return f"{prefix}-" + "".join(secrets.choice(_ALPHABET) for _ in range(n))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def seconds_since(iso: str | None, cap: float = 86400.0) -> float:
    """Seconds from ``iso`` (as :func:`now_iso` writes it) to now: 0 when unknown or in the
    future, at most ``cap`` (a clock jump or a stale file must not charge a week)."""
    if not iso:
        return 0.0
    try:
        then = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max(0.0, min((datetime.now(UTC) - then).total_seconds(), cap))
