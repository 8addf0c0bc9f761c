"""The working tree as evidence: content hashes, protected paths, skip markers, git checkpoints.

Hashes prove the oracle wrote nothing and show whether a maker changed
anything at all. Checkpoints go to a private ref
(``refs/goalkeeper/<goalId>/<n>``) through a throw-away index file, so the
user's branch, HEAD and index are never touched.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import ConfigError, NotFoundError

__all__ = [
    "ALWAYS_EXCLUDED",
    "Snapshot",
    "checkpoint",
    "count_markers",
    "git_toplevel",
    "full_snapshot",
    "glob_match",
    "marker_increases",
    "protected_changes",
    "restore",
    "snapshot",
]

# Files that change how tests or the interpreter run, wherever they are (even gitignored
# or inside a virtualenv): always hashed, and adding one is a protected change.
SENSITIVE_NAMES = frozenset({"conftest.py", "sitecustomize.py", "usercustomize.py", "pytest.ini"})

ALWAYS_EXCLUDED = frozenset({
    ".git", ".goalkeeper", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache",
    ".hypothesis", ".tox", ".nox", ".venv", "node_modules",
})
_GIT_ENV = {
    "GIT_AUTHOR_NAME": "goalkeeper", "GIT_AUTHOR_EMAIL": "goalkeeper@localhost",
    "GIT_COMMITTER_NAME": "goalkeeper", "GIT_COMMITTER_EMAIL": "goalkeeper@localhost",
}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every file under the workspace (gitignore respected) -> sha256; ``digest`` covers them all."""

    digest: str
    files: Mapping[str, str] = field(default_factory=dict)


def _git(args: list[str], cwd: Path, env: Mapping[str, str] | None = None,
         stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    full = {**os.environ, **_GIT_ENV, **(env or {})}
    return subprocess.run(["git", *args], cwd=cwd, env=full, input=stdin, capture_output=True, check=False)


def git_toplevel(workspace: Path) -> Path | None:
    try:
        res = _git(["rev-parse", "--show-toplevel"], workspace)
    except FileNotFoundError:
        return None
    return Path(res.stdout.decode().strip()) if res.returncode == 0 else None


def _excluded(rel: str, extra: frozenset[str]) -> bool:
    parts = rel.split("/")
    return any(p in ALWAYS_EXCLUDED for p in parts) or any(
        rel == e or rel.startswith(e + "/") for e in extra
    )


def _list_files(ws: Path, extra: frozenset[str], sensitive: bool = True) -> Iterator[str]:
    if git_toplevel(ws) is not None:
        res = _git(["ls-files", "-co", "--exclude-standard", "-z"], ws)
        names: Iterable[str] = sorted({n for n in res.stdout.decode(errors="surrogateescape").split("\0") if n})
    else:
        names = sorted(
            str(Path(root, f).relative_to(ws)).replace(os.sep, "/")
            for root, dirs, files in os.walk(ws)
            for f in files
            if not any(p in ALWAYS_EXCLUDED for p in Path(root).relative_to(ws).parts)
        )
    seen = set()
    for rel in names:
        p = ws / rel
        if not _excluded(rel, extra) and (p.is_file() or p.is_symlink()):
            seen.add(rel)
            yield rel
    if sensitive:
        yield from sorted(_sensitive(ws, extra) - seen)


def _sensitive(ws: Path, extra: frozenset[str]) -> set[str]:
    """conftest.py, sitecustomize.py, *.pth ... anywhere but .git and the state dir."""
    out = set()
    for root, dirs, files in os.walk(ws):
        rel_root = Path(root).relative_to(ws)
        dirs[:] = [d for d in dirs if d not in (".git", ".goalkeeper")]
        for f in files:
            if f in SENSITIVE_NAMES or f.endswith(".pth"):
                rel = str(rel_root / f).replace(os.sep, "/").removeprefix("./")
                if not any(rel == e or rel.startswith(e + "/") for e in extra):
                    out.add(rel)
    return out


def _hash_file(p: Path) -> str:
    h = hashlib.sha256()
    if p.is_symlink():
        h.update(b"link:" + os.readlink(p).encode(errors="surrogateescape"))
        return h.hexdigest()
    h.update(b"x:" if os.access(p, os.X_OK) else b"f:")
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def snapshot(workspace: str | Path, exclude: Iterable[str | Path] = ()) -> Snapshot:
    """Hash the tree; ``exclude`` holds extra paths (e.g. a state dir inside the workspace)."""
    ws = Path(workspace).resolve()
    extra: set[str] = set()
    for e in exclude:
        with contextlib.suppress(ValueError):
            extra.add(str(Path(e).resolve().relative_to(ws)).replace(os.sep, "/"))
    files = {rel: _hash_file(ws / rel) for rel in _list_files(ws, frozenset(extra - {"."}))}
    total = hashlib.sha256()
    for rel, h in files.items():
        total.update(rel.encode(errors="surrogateescape") + b"\0" + h.encode() + b"\n")
    return Snapshot(total.hexdigest(), files)


def full_snapshot(workspace: str | Path, exclude: Iterable[str | Path] = ()) -> Snapshot:
    """Everything a judge could touch: the content snapshot, plus every other file (ignored
    ones, virtualenvs, node_modules, .git/hooks and .git/config) by size, mtime and mode.

    The oracle must leave the workspace byte-identical; this is how that is checked
    without hashing the contents of every dependency on each iteration.
    """
    base = snapshot(workspace, exclude)
    ws = Path(workspace).resolve()
    skip = set()
    for e in exclude:
        with contextlib.suppress(ValueError):
            skip.add(str(Path(e).resolve().relative_to(ws)).replace(os.sep, "/"))
    files = dict(base.files)
    for root, dirs, names in os.walk(ws):
        rel_root = str(Path(root).relative_to(ws)).replace(os.sep, "/")
        rel_root = "" if rel_root == "." else rel_root + "/"
        if rel_root == "":
            dirs[:] = [d for d in dirs if d != ".goalkeeper" and d not in skip]
        if rel_root == ".git/":
            dirs[:] = [d for d in dirs if d == "hooks"]
            names = [n for n in names if n == "config"]
        for n in names:
            rel = rel_root + n
            if rel in files or any(rel == s or rel.startswith(s + "/") for s in skip):
                continue
            with contextlib.suppress(OSError):
                st = os.lstat(ws / rel)
                files[rel] = f"stat:{st.st_size}:{st.st_mtime_ns}:{st.st_mode}"
    total = hashlib.sha256()
    for rel in sorted(files):
        total.update(rel.encode(errors="surrogateescape") + b"\0" + files[rel].encode() + b"\n")
    return Snapshot(total.hexdigest(), dict(sorted(files.items())))


# --- protected paths -------------------------------------------------------------

@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    body = "".join(out)
    # gitignore-like: a pattern without "/" (or only a trailing "/**") matches at any depth
    anchored = "/" in pattern.rstrip("/*") or pattern.startswith("/")
    return re.compile(("^" if anchored else "^(?:.*/)?") + body.lstrip("/") + "$")


def glob_match(path: str, patterns: Iterable[str]) -> bool:
    return any(_glob_regex(p).match(path) for p in patterns)


def protected_changes(
    baseline: Mapping[str, str], after: Snapshot, patterns: Iterable[str] = (),
    before: Snapshot | None = None,
) -> list[str]:
    """Protected files (hashed at goal start) that were deleted or edited, and files new
    since ``before`` that match a protected glob or are sensitive (a new conftest.py can
    rewrite every test result)."""
    found = []
    for rel, h in sorted(baseline.items()):
        now = after.files.get(rel)
        if now is None:
            found.append(f"deleted protected file {rel}")
        elif now != h:
            found.append(f"edited protected file {rel}")
    pats = list(patterns)
    known = set(baseline) | (set(before.files) if before is not None else set(after.files))
    for rel in sorted(set(after.files) - known):
        if glob_match(rel, pats) or Path(rel).name in SENSITIVE_NAMES or rel.endswith(".pth"):
            found.append(f"added protected file {rel}")
    return found


# --- skip markers ----------------------------------------------------------------

_MARKER = re.compile(
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail)\(|@unittest\.(?:skip\w*|expectedFailure)"
    r"|\bskipTest\(|\bSkipTest\b|\bcollect_ignore\w*|--deselect\b|--ignore[= ]"
    r"|\b(?:it|test|describe)\.(?:skip|only)\(|\bx(?:it|describe|test)\(|\bt\.Skip\w*\(|#\[ignore\]"
    r"|@(?:Disabled|Ignore)\b|#\s*noqa\b|ruff:\s*noqa|eslint-disable|pylint:\s*disable|#\s*type:\s*ignore"
)
_TEXT_SUFFIXES = frozenset({
    ".py", ".pyi", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".go", ".rs", ".java", ".kt", ".rb",
    ".cfg", ".toml", ".ini", ".json", ".yml", ".yaml",
})


def count_markers(path: Path) -> int:
    if path.suffix not in _TEXT_SUFFIXES or not path.is_file() or path.stat().st_size > 2_000_000:
        return 0
    try:
        return len(_MARKER.findall(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return 0


def marker_increases(
    workspace: Path, before: Snapshot, after: Snapshot, baseline: Mapping[str, int]
) -> list[str]:
    """Changed files that now hold more skip/suppression markers than at goal start."""
    found = []
    for rel, h in after.files.items():
        if before.files.get(rel) == h:
            continue
        n = count_markers(workspace / rel)
        if n > baseline.get(rel, 0):
            found.append(f"added skip/suppression marker(s) in {rel} ({baseline.get(rel, 0)} -> {n})")
    return found


# --- git checkpoints ---------------------------------------------------------------

def _require_git(ws: Path) -> Path:
    top = git_toplevel(ws)
    if top is None:
        raise ConfigError(f"{ws} is not inside a git repository; checkpoints and rollback need git")
    return top


def checkpoint(workspace: str | Path, ref: str, message: str, parent_ref: str | None = None,
               exclude: Iterable[str | Path] = ()) -> str | None:
    """Commit the current tree to ``ref`` without touching HEAD or the index; None outside git."""
    ws = Path(workspace).resolve()
    if git_toplevel(ws) is None:
        return None
    files = list(_list_files(ws, frozenset(
        str(Path(e).resolve().relative_to(ws)) for e in exclude if Path(e).resolve().is_relative_to(ws)
    )))
    with tempfile.TemporaryDirectory(prefix="goalkeeper-idx-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        stdin = b"".join(f.encode(errors="surrogateescape") + b"\0" for f in files)
        res = _git(["update-index", "--add", "-z", "--stdin"], ws, env, stdin)
        if res.returncode != 0:
            raise ConfigError(f"git update-index failed in {ws}: {res.stderr.decode().strip()}")
        tree = _git(["write-tree"], ws, env).stdout.decode().strip()
    args = ["commit-tree", tree, "-m", message]
    if parent_ref:
        parent = _git(["rev-parse", "--verify", "-q", parent_ref + "^{commit}"], ws)
        if parent.returncode == 0:
            args += ["-p", parent.stdout.decode().strip()]
    commit = _git(args, ws)
    if commit.returncode != 0:
        raise ConfigError(f"git commit-tree failed in {ws}: {commit.stderr.decode().strip()}")
    sha = commit.stdout.decode().strip()
    upd = _git(["update-ref", ref, sha], ws)
    if upd.returncode != 0:
        raise ConfigError(f"git update-ref {ref} failed: {upd.stderr.decode().strip()}")
    return sha


def restore(workspace: str | Path, ref: str, exclude: Iterable[str | Path] = ()) -> list[str]:
    """Make the workspace match checkpoint ``ref``; returns the files it deleted."""
    ws = Path(workspace).resolve()
    top = _require_git(ws)
    tree = _git(["rev-parse", "--verify", "-q", ref + "^{tree}"], ws)
    if tree.returncode != 0:
        raise NotFoundError(f"no checkpoint {ref}; list them with `git for-each-ref refs/goalkeeper/`")
    tree_sha = tree.stdout.decode().strip()
    prefix = _git(["rev-parse", "--show-prefix"], ws).stdout.decode().strip()
    with tempfile.TemporaryDirectory(prefix="goalkeeper-idx-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        for args in (["read-tree", tree_sha], ["checkout-index", "-a", "-f"]):
            res = _git(args, top, env)
            if res.returncode != 0:
                raise ConfigError(f"git {args[0]} failed: {res.stderr.decode().strip()}")
    listed = _git(["ls-tree", "-r", "-z", "--name-only", "--full-tree", tree_sha], ws).stdout
    in_tree = {n[len(prefix):] for n in listed.decode(errors="surrogateescape").split("\0") if n}
    extra = frozenset(
        str(Path(e).resolve().relative_to(ws)) for e in exclude if Path(e).resolve().is_relative_to(ws)
    )
    deleted = []
    for rel in _list_files(ws, extra, sensitive=False):  # never touch ignored files here
        if rel not in in_tree:
            (ws / rel).unlink()
            deleted.append(rel)
    return deleted
