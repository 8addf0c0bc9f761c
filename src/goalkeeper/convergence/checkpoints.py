"""Checkpoints in a private git dir that the maker cannot reach and the workspace cannot program.

Each goal gets a bare repository under the state home
(``<home>/checkpoints/<goalId>.git``); the workspace's own repository is never
written (or even needed). goalkeeper's git runs with no system or global
config, no hooks, no fsmonitor, no filters and no attributes: blobs are made
with ``hash-object --no-filters`` and files are restored by writing blob
bytes ourselves, so nothing in the workspace (``.gitattributes``,
``.git/config``, hooks) can run code or rewrite content on the way in or out.

A checkpoint is used only by the commit id recorded in the goal (whose file
is sealed), never by a ref a process could move; the refs exist for people.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError, IntegrityError, NotFoundError
from .tree import Tree, is_cache

__all__ = ["Checkpoint", "CheckpointStore", "object_id", "is_credential"]

_GIT_ID = {
    "GIT_AUTHOR_NAME": "goalkeeper", "GIT_AUTHOR_EMAIL": "goalkeeper@localhost",
    "GIT_COMMITTER_NAME": "goalkeeper", "GIT_COMMITTER_EMAIL": "goalkeeper@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}
_SAFE = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "core.autocrlf=false",
         "-c", "commit.gpgsign=false", "-c", "gc.auto=0", "-c", "core.attributesFile=/dev/null",
         "--literal-pathspecs"]
# Files that hold credentials: hashed (they are evidence) but never stored in a checkpoint.
_CREDENTIAL = re.compile(
    r"(^|/)(\.env(\..*)?|\.envrc|\.netrc|\.pypirc|\.npmrc|credentials(\.json)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?"
    r"|[^/]*\.(pem|key|p12|pfx|keystore|jks))$",
    re.I,
)


def is_credential(rel: str) -> bool:
    return bool(_CREDENTIAL.search(rel))


@dataclass(frozen=True, slots=True)
class Checkpoint:
    commit: str
    tree: str


# git refuses paths inside ".git"; the few such files we hash are stored under this name.
_GIT_META = ".goalkeeper-git-meta/"


def _to_store(rel: str) -> str:
    return _GIT_META + rel[5:] if rel.startswith(".git/") else rel


def _from_store(rel: str) -> str:
    return ".git/" + rel[len(_GIT_META):] if rel.startswith(_GIT_META) else rel


def _mode(h: str) -> str:
    return {"x": "100755", "l": "120000"}.get(h[0], "100644")


class CheckpointStore:
    """One goal's private checkpoint repository."""

    def __init__(self, gitdir: Path, *, include_credentials: bool = False) -> None:
        self.gitdir = gitdir
        self.include_credentials = include_credentials
        self._blobs_path = gitdir / "goalkeeper-blobs.json"
        self._blobs: dict[str, str] | None = None

    # --- plumbing ---------------------------------------------------------------
    def _env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.gitdir), "LC_ALL": "C",
               "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_ATTR_NOSYSTEM": "1",
               "GIT_TERMINAL_PROMPT": "0", "GIT_DIR": str(self.gitdir), **_GIT_ID}
        env.update(extra or {})
        return env

    def _git(self, args: list[str], *, cwd: Path | None = None, stdin: bytes | None = None,
             env: Mapping[str, str] | None = None, check: bool = True) -> bytes:
        try:
            res = subprocess.run(["git", *_SAFE, *args], cwd=cwd or self.gitdir, env=self._env(env), input=stdin,
                                 capture_output=True, check=False)
        except FileNotFoundError:
            raise ConfigError("git is not installed; checkpoints need it (or create the goal with --no-checkpoint)") from None
        if check and res.returncode != 0:
            raise ConfigError(f"git {args[0]} failed in {self.gitdir}: {res.stderr.decode(errors='replace').strip()}")
        return res.stdout

    def ensure(self) -> None:
        if (self.gitdir / "HEAD").exists():
            return
        self.gitdir.mkdir(parents=True, exist_ok=True, mode=0o700)
        subprocess.run(["git", "init", "-q", "--bare", str(self.gitdir)], env=self._env(), capture_output=True,
                       check=True)

    def _blob_map(self) -> dict[str, str]:
        if self._blobs is None:
            try:
                data = json.loads(self._blobs_path.read_text(encoding="utf-8"))
                self._blobs = {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
            except (OSError, ValueError):
                self._blobs = {}
        return self._blobs

    def _save_blob_map(self) -> None:
        tmp = self._blobs_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._blob_map()), encoding="utf-8")
        os.replace(tmp, self._blobs_path)

    # --- writing --------------------------------------------------------------------
    def stored(self, rel: str) -> bool:
        return not is_cache(rel) and (self.include_credentials or not is_credential(rel))

    def commit(self, ws: Path, tree: Tree, message: str, *, parent: str | None = None,
               ref: str | None = None) -> Checkpoint:
        """Store ``tree`` (the files as hashed in it) and return its commit."""
        self.ensure()
        blobs = self._blob_map()
        entries = [(rel, h) for rel, h in tree.files.items() if self.stored(rel) and h[0] in "fxl"]
        todo_files = [rel for rel, h in entries if h[0] in "fx" and h not in blobs]
        if todo_files:
            out = self._git(["hash-object", "-w", "--no-filters", "--stdin-paths"], cwd=ws,
                            stdin="".join(f"{r}\n" for r in todo_files).encode(errors="surrogateescape"))
            shas = out.decode().split()
            for rel, sha in zip(todo_files, shas, strict=True):
                blobs[tree.files[rel]] = sha
        for rel, h in entries:
            if h[0] == "l" and h not in blobs:
                target = os.readlink(ws / rel)
                blobs[h] = self._git(["hash-object", "-w", "--stdin"], stdin=os.fsencode(target)).decode().strip()
        with tempfile.TemporaryDirectory(prefix="goalkeeper-idx-") as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            lines = b"".join(f"{_mode(h)} {blobs[h]}\t".encode() + _to_store(rel).encode(errors="surrogateescape")
                             + b"\0" for rel, h in entries if h in blobs)
            self._git(["update-index", "-z", "--index-info"], stdin=lines, env=env)
            tree_sha = self._git(["write-tree"], env=env).decode().strip()
        args = ["commit-tree", tree_sha, "-m", message]
        if parent:
            args += ["-p", parent]
        commit = self._git(args).decode().strip()
        if ref:
            self._git(["update-ref", ref, commit])
        self._save_blob_map()
        return Checkpoint(commit, tree_sha)

    # --- reading --------------------------------------------------------------------
    def verify(self, cp: Checkpoint) -> None:
        """The commit exists and still names the tree recorded for it."""
        if not (self.gitdir / "HEAD").exists():
            raise NotFoundError(f"no checkpoint store at {self.gitdir}")
        out = self._git(["rev-parse", "--verify", "-q", cp.commit + "^{tree}"], check=False).decode().strip()
        if out != cp.tree:
            raise ConfigError(f"checkpoint {cp.commit[:12]} does not hold its recorded tree; refusing to use it")

    def entries(self, cp: Checkpoint) -> dict[str, tuple[str, str]]:
        """path -> (mode, blob) of a verified checkpoint (every tree object checked against its id)."""
        self.verify(cp)
        found: dict[str, tuple[str, str]] = {}
        todo = [(b"", cp.tree)]
        while todo:
            trees = self._objects((t for _, t in todo), "tree")
            deeper = []
            for prefix, tid in todo:
                for mode, name, sha in _tree_items(trees[tid], len(tid) // 2):
                    if mode == "40000":
                        deeper.append((prefix + name + b"/", sha))
                    else:
                        found[_from_store((prefix + name).decode(errors="surrogateescape"))] = (mode, sha)
            todo = deeper
        return found

    def read_blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """The content of each blob, verified against its id (see :meth:`_objects`)."""
        return self._objects(shas, "blob")

    def _objects(self, ids: Iterable[str], kind: str) -> dict[str, bytes]:
        """Raw content of objects of one kind, each verified against its id.

        git returns a loose object's bytes without checking them against the id they are filed
        under, so a store that something rewrote would hand back whatever was written there; we
        recompute each id (sha1, or sha256 in a sha256 repository) and refuse a mismatch.
        """
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        out = self._git(["cat-file", "--batch"], stdin="".join(s + "\n" for s in wanted).encode())
        found, pos = {}, 0
        for oid in wanted:
            nl = out.index(b"\n", pos)
            header = out[pos:nl].split()
            if len(header) != 3 or header[1] != kind.encode():
                what = b" ".join(header[1:]).decode(errors="replace") or "nothing"
                raise IntegrityError(f"{self.gitdir}: object {oid} is {what}, not a {kind}; the checkpoint store "
                                     "is corrupt or was tampered with, so goalkeeper will not use it")
            size = int(header[2])
            data = out[nl + 1:nl + 1 + size]
            if object_id(kind, data, len(oid)) != oid:
                raise IntegrityError(f"{self.gitdir}: the content stored as {kind} {oid} does not match its id; the "
                                     "checkpoint store is corrupt or was tampered with, so goalkeeper will not use "
                                     "it (start the goal over with `goalkeeper goal new`)")
            found[oid] = data
            pos = nl + 1 + size + 1
        return found

    def read_file(self, cp: Checkpoint, rel: str) -> bytes | None:
        entry = self.entries(cp).get(rel)
        return self.read_blobs([entry[1]])[entry[1]] if entry else None

    # --- restoring ------------------------------------------------------------------
    def plan_restore(self, cp: Checkpoint, current: Tree) -> tuple[list[str], list[str]]:
        """(paths to write, paths to delete) that would make the workspace match ``cp``."""
        want = self.entries(cp)
        write, delete = [], []
        for rel, (mode, sha) in want.items():
            cur = current.files.get(rel)
            if cur is None or _mode(cur) != mode or not self._same(cur, sha):
                write.append(rel)
        for rel in current.files:
            if rel not in want and self.stored(rel):
                delete.append(rel)
            elif rel not in want and is_cache(rel):
                delete.append(rel)  # a planted cache must not survive a revert
        return sorted(write), sorted(delete)

    def _same(self, content_hash: str, blob: str) -> bool:
        return self._blob_map().get(content_hash) == blob

    def restore(self, ws: Path, cp: Checkpoint, current: Tree,
                on_path: Callable[[str], None] | None = None) -> tuple[list[str], list[str]]:
        """Make the workspace match ``cp``: write its files, delete what it lacks."""
        write, delete = self.plan_restore(cp, current)
        want = self.entries(cp)
        blobs = self.read_blobs(want[r][1] for r in write)
        for rel in delete:  # first, so a planted symlink never redirects a write
            _unlink_inside(ws, rel)
        for rel in write:
            mode, sha = want[rel]
            target = ws / rel
            _real_parents(ws, rel)
            with contextlib.suppress(FileNotFoundError):
                if target.is_symlink() or not target.is_dir():
                    target.unlink()
            if mode == "120000":
                os.symlink(os.fsdecode(blobs[sha]), target)
            else:
                fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
                with os.fdopen(fd, "wb") as f:
                    f.write(blobs[sha])
                os.chmod(tmp, 0o755 if mode == "100755" else 0o644)
                os.replace(tmp, target)
            if on_path:
                on_path(rel)
        _prune_empty_dirs(ws, delete)
        return write, delete

    def diff(self, a: Checkpoint, b: Checkpoint, paths: Iterable[str] = ()) -> str:
        """A unified diff between two checkpoints (no external diff, no textconv)."""
        # git reads the blobs itself: those that differ are verified first (entries() checks the trees)
        ea, eb = self.entries(a), self.entries(b)
        plist = list(paths)
        changed = [r for r in set(ea) | set(eb) if ea.get(r) != eb.get(r) and (not plist or _under(r, plist))]
        self.read_blobs(e[1] for r in changed for e in (ea.get(r), eb.get(r)) if e and e[0] != "160000")
        args = ["diff-tree", "-p", "-r", "--no-ext-diff", "--no-textconv", "--no-color", a.tree, b.tree]
        if plist:
            args += ["--", *plist]
        return self._git(args).decode(errors="replace")

    def blame(self, cp: Checkpoint, path: str, lines: Iterable[int]) -> dict[int, str]:
        """line -> the checkpoint commit that last changed it (within this goal's chain)."""
        wanted = sorted({n for n in lines if n > 0})
        if not wanted:
            return {}
        args = ["blame", "--porcelain", *[x for n in wanted for x in ("-L", f"{n},{n}")], cp.commit, "--", path]
        out = self._git(args, check=False).decode(errors="replace").splitlines()
        found: dict[int, str] = {}
        for line in out:
            parts = line.split()
            if len(parts) >= 3 and len(parts[0]) == 40 and all(c in "0123456789abcdef" for c in parts[0]):
                found[int(parts[2])] = parts[0]
        return found

    def content_sha256(self, data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()


def object_id(kind: str, data: bytes, length: int = 40) -> str:
    """git's id of an object: sha1 (40 hex digits) or, in a sha256 repository, sha256."""
    algo = hashlib.sha256 if length == 64 else hashlib.sha1
    return algo(kind.encode() + b" %d\0" % len(data) + data).hexdigest()


def _under(rel: str, paths: Iterable[str]) -> bool:
    return any(rel == p.rstrip("/") or rel.startswith(p.rstrip("/") + "/") for p in paths)


def _tree_items(raw: bytes, idlen: int) -> Iterator[tuple[str, bytes, str]]:
    """(mode, name, id) of each entry of a raw tree object (``MODE NAME\\0`` then the binary id)."""
    pos = 0
    while pos < len(raw):
        sp = raw.index(b" ", pos)
        nul = raw.index(b"\0", sp)
        yield raw[pos:sp].decode(), raw[sp + 1:nul], raw[nul + 1:nul + 1 + idlen].hex()
        pos = nul + 1 + idlen


def _real_parents(ws: Path, rel: str) -> None:
    """Make every parent of ``rel`` a real directory inside ``ws`` (a symlink there is removed)."""
    p = ws
    for part in Path(rel).parts[:-1]:
        p = p / part
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            p.unlink()
        if not p.exists():
            p.mkdir()


def _unlink_inside(ws: Path, rel: str) -> None:
    p = ws
    for part in Path(rel).parts[:-1]:
        p = p / part
        if p.is_symlink() or not p.is_dir():
            return  # its parent is already gone or is a link: never delete through it
    with contextlib.suppress(FileNotFoundError, IsADirectoryError, NotADirectoryError):
        (ws / rel).unlink()


def _prune_empty_dirs(ws: Path, removed: Iterable[str]) -> None:
    dirs = sorted({str(Path(r).parent) for r in removed if "/" in r}, key=len, reverse=True)
    for d in dirs:
        p = ws / d
        while p != ws:
            try:
                p.rmdir()
            except OSError:
                break
            p = p.parent
