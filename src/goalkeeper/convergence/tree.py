"""The workspace as evidence: every file on disk, hashed, whatever git ignores.

A verdict is bound to a :class:`Tree`: the hash of every file under the
workspace as the file system shows it (ignored files, caches and bytecode
included), not git's view of it, so a file hidden by ``.gitignore`` or
``.git/info/exclude`` is still seen. Left out are only:

* the workspace's own ``.git`` directory (checkpoints live in a private git
  dir), but for what in it steers the tools (``info/exclude``, ``config``,
  hooks). A ``.git`` folder anywhere below the root is walked like any other
  folder: a nested repository's ``info/exclude`` steers ruff, and a file
  hidden in it would otherwise be outside the evidence,
* environment directories (a ``pyvenv.cfg`` virtualenv, ``node_modules``,
  a conda env): they belong to the toolchain, which is fingerprinted
  separately (:mod:`.toolchain`),
* goalkeeper's own state directory, when it lies inside the workspace.

A symlink is hashed as its target text plus, when it leads to a regular file,
that file's content: what the link shows is what the checks read.

Hashing is incremental: a file whose (inode, size, mtime, ctime, mode) is
unchanged since the last walk keeps its hash. ctime cannot be set from user
space, so restoring an mtime does not hide an edit.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CACHE_DIRS", "Hasher", "Tree", "diff_trees", "env_dir", "signature", "touched", "walk"]

# Output of tools, not input written by anyone: kept in the seal but not in "did the
# maker change anything" (a maker that only ran the tests made no progress).
CACHE_DIRS = frozenset({
    "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".hypothesis", ".tox", ".nox",
    ".cache", ".coverage_cache",
})
_CACHE_FILES = frozenset({".coverage"})
_SKIP_DIRS = frozenset({".git"})
# Inside .git, what steers the tools we run (ruff honours info/exclude) and what runs code
# in the user's next git command (hooks, config): hashed like project files.
_GIT_FILES = (".git/info/exclude", ".git/config")
_GIT_DIRS = (".git/hooks",)


def env_dir(path: Path, names: Iterable[str]) -> bool:
    """A directory that is an environment (toolchain), not project source."""
    n = set(names)
    return path.name == "node_modules" or "pyvenv.cfg" in n or "conda-meta" in n


@dataclass(frozen=True, slots=True)
class Tree:
    """``files`` maps a workspace-relative path to its content hash (``f:``/``x:``/``l:``/``s:``)."""

    digest: str
    files: Mapping[str, str] = field(default_factory=dict)
    env_dirs: tuple[str, ...] = ()
    sigs: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def source_digest(self) -> str:
        """The digest without tool caches: what changes when someone edits the project."""
        return _digest((rel, h) for rel, h in self.files.items() if not is_cache(rel))


def is_cache(rel: str) -> bool:
    parts = rel.split("/")
    return parts[-1] in _CACHE_FILES or any(p in CACHE_DIRS for p in parts[:-1])


def _digest(items: Iterable[tuple[str, str]]) -> str:
    total = hashlib.sha256()
    for rel, h in items:
        total.update(rel.encode(errors="surrogateescape") + b"\0" + h.encode() + b"\n")
    return total.hexdigest()


def signature(st: os.stat_result) -> str:
    """inode, size, mtime, ctime and mode: any write (even one undone, even with the mtime put
    back) changes the ctime, which user space cannot set."""
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_mode:o}"


def touched(a: Tree, b: Tree) -> list[str]:
    """Files whose stat signature differs: written, replaced, linked or chmod-ed in between."""
    sa, sb = a.sigs, b.sigs
    return sorted(p for p in set(sa) | set(sb) if sa.get(p) != sb.get(p))


class Hasher:
    """Content hashes with a stat cache, so re-walking an unchanged tree reads no file."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[tuple[int, ...], str]] = {}

    def hash(self, path: str, st: os.stat_result) -> str:
        mode = st.st_mode
        if stat.S_ISLNK(mode):
            text = hashlib.sha256(os.fsencode(os.readlink(path)))
            try:
                target = os.stat(path)  # followed: the file the checks would read through the link
            except OSError:
                return "l:" + text.hexdigest()
            if stat.S_ISREG(target.st_mode):
                text.update(b"\0" + self.hash(os.path.realpath(path), target).encode())
            return "l:" + text.hexdigest()
        if not stat.S_ISREG(mode):
            return f"s:{stat.S_IFMT(mode):o}"  # a FIFO, socket or device: never opened
        key = (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns, mode)
        hit = self._cache.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        h = hashlib.sha256()
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as e:
            return f"e:{e.errno}"
        try:
            with os.fdopen(fd, "rb") as f:
                while chunk := f.read(1 << 20):
                    h.update(chunk)
        except OSError as e:  # opened but unreadable (EIO, EISDIR...): part of the evidence as such
            return f"e:{e.errno}"
        value = ("x:" if mode & 0o111 else "f:") + h.hexdigest()
        self._cache[path] = (key, value)
        return value


def walk(workspace: str | Path, *, exclude: Iterable[str | Path] = (), hasher: Hasher | None = None,
         env_dirs: Iterable[str] | None = None) -> Tree:
    """Hash every file under ``workspace`` except ``.git``, environments and ``exclude``.

    Environments are detected only when ``env_dirs`` is None (the baseline walk);
    later walks skip exactly the baseline's, so a maker cannot hide files from
    the snapshot by dropping a ``pyvenv.cfg`` into a new directory.
    """
    known = None if env_dirs is None else set(env_dirs)
    ws = Path(workspace).resolve()
    hasher = hasher or Hasher()
    skip = {str(Path(e).resolve()) for e in exclude}
    files: dict[str, str] = {}
    sigs: dict[str, str] = {}
    envs: list[str] = []
    stack = [(str(ws), "")]
    while stack:
        top, rel_top = stack.pop()
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        if rel_top and (env_dir(Path(top), [e.name for e in entries]) if known is None
                        else rel_top.rstrip("/") in known):
            envs.append(rel_top.rstrip("/"))
            continue
        for e in entries:
            rel = f"{rel_top}{e.name}"
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if (e.name in _SKIP_DIRS and not rel_top) or e.path in skip:
                    continue
                stack.append((e.path, rel + "/"))
            elif e.path not in skip:
                files[rel] = hasher.hash(e.path, st)
                sigs[rel] = signature(st)
    extra = list(_GIT_FILES)
    for d in _GIT_DIRS:
        with contextlib.suppress(OSError):
            extra += [f"{d}/{n}" for n in os.listdir(ws / d)]
    for rel in extra:
        p = ws / rel
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            files[rel] = hasher.hash(str(p), st)
            sigs[rel] = signature(st)
    ordered = dict(sorted(files.items()))
    return Tree(_digest(ordered.items()), ordered, tuple(sorted(envs)), sigs)


def diff_trees(before: Tree, after: Tree) -> tuple[list[str], list[str], list[str]]:
    """(added, changed, deleted) paths from ``before`` to ``after``."""
    a, b = before.files, after.files
    added = sorted(set(b) - set(a))
    deleted = sorted(set(a) - set(b))
    changed = sorted(p for p in set(a) & set(b) if a[p] != b[p])
    return added, changed, deleted
