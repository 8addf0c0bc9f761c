"""Read-only tools for an LLM oracle, confined to the workspace. Enforced, not by convention.

Every path is resolved (symlinks followed) and must stay inside the workspace:
``..``, absolute paths and symlinks that point outside are refused. Outputs
are capped. Git runs with optional locks off, no external diff or textconv
drivers and no fsmonitor, so judging cannot write to ``.git`` or run hooks.
A tool failure is a message for the model, never an exception for the loop.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..proc import Runner, run_argv

__all__ = [
    "GIT_READONLY",
    "TOOL_ALIASES",
    "TOOL_DOCS",
    "OracleTools",
    "ToolRefused",
    "iteration_diff",
    "sealed_diff",
]

MAX_FILE_BYTES = 64_000
MAX_OUTPUT_CHARS = 16_000
MAX_GREP_FILE_BYTES = 1_000_000
SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache"})
GIT_READONLY = (
    "git", "--no-pager", "--no-optional-locks", "--literal-pathspecs",
    "-c", "core.fsmonitor=false", "-c", "diff.external=", "-c", "core.pager=cat", "-c", "core.hooksPath=/dev/null",
)
# Repository config keys that make git run a program: each is overridden to nothing.
_RUNS_CODE = re.compile(
    r"^(?:(?:filter|diff|merge)\..+\.(?:clean|smudge|process|textconv|command|driver|required)"
    r"|core\.(?:fsmonitor|hookspath|pager|sshcommand|askpass|editor|gitproxy|alternaterefscommand)"
    r"|credential\..*|gpg\..*|sequence\.editor|uploadpack\..*|include\..*|includeif\..*)$",
    re.I,
)
_SAFE_REF = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./^~@{}-]{0,199}$")

TOOL_DOCS = {
    "read_file": '{"path": "src/x.py", "start_line": 1, "max_lines": 400} -> numbered lines',
    "list_dir": '{"path": "."} -> entries, directories end with "/"',
    "grep": '{"pattern": "regex", "path": ".", "glob": "*.py"} -> path:line: text (max 100)',
    "git_diff": '{"ref": "HEAD", "path": "."} -> unified diff of the working tree against ref',
    "git_log": '{"n": 10, "path": "."} -> one line per commit',
}
# Claude-Code-style names in OracleConfig.allowedTools -> our tools.
TOOL_ALIASES: Mapping[str, tuple[str, ...]] = {
    "Read": ("read_file", "git_diff", "git_log"),
    "Grep": ("grep",),
    "Glob": ("list_dir",),
    "LS": ("list_dir",),
    **{name: (name,) for name in TOOL_DOCS},
}


class ToolRefused(Exception):  # noqa: N818 - it is a refusal, reported to the model as text
    """A tool call the oracle may not make (path escape, bad argument); shown to the model."""


def _cap(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... truncated, {len(text) - limit} more characters]"


class OracleTools:
    """The oracle's hands: read, list, grep, git diff/log inside ``workspace`` only."""

    def __init__(self, workspace: Path, *, allowed: Collection[str] | None = None, runner: Runner = run_argv,
                 diff_source: Callable[[str | None, str | None], str] | None = None) -> None:
        self.root = Path(workspace).resolve()
        self.runner = runner
        self.diff_source = diff_source
        self._overrides: list[str] | None = None
        names: set[str] = set()
        for a in TOOL_DOCS if allowed is None else allowed:
            names.update(TOOL_ALIASES.get(a, ()))
        self.enabled = sorted(names)
        self._impl: dict[str, Callable[..., str]] = {
            "read_file": self.read_file, "list_dir": self.list_dir, "grep": self.grep,
            "git_diff": self.git_diff, "git_log": self.git_log,
        }

    def describe(self) -> str:
        return "\n".join(f"- {n} {TOOL_DOCS[n]}" for n in self.enabled) or "(no tools enabled)"

    def call(self, name: str, args: Mapping[str, Any]) -> str:
        """Run one tool; refusals and errors come back as text for the model."""
        if name not in self.enabled:
            return f"refused: tool {name!r} is not available (available: {', '.join(self.enabled) or 'none'})"
        try:
            return _cap(self._impl[name](**dict(args)))
        except ToolRefused as e:
            return f"refused: {e}"
        except (TypeError, ValueError, OverflowError) as e:
            return f"refused: bad arguments for {name}: {e}"
        except OSError as e:
            return f"error: {e.strerror or e}"

    # --- confinement -------------------------------------------------------
    def resolve(self, path: object) -> Path:
        """``path`` inside the workspace, symlinks resolved; anything else is refused."""
        if not isinstance(path, str) or not path.strip():
            raise ToolRefused("path must be a non-empty string relative to the workspace")
        if "\0" in path:
            raise ToolRefused("path contains a NUL byte")
        p = Path(path)
        if p.is_absolute():
            raise ToolRefused(f"{path!r} is absolute; give a path relative to the workspace")
        if ".." in p.parts:
            raise ToolRefused(f"{path!r} climbs out with '..'; stay inside the workspace")
        full = (self.root / p).resolve()
        if not full.is_relative_to(self.root):
            raise ToolRefused(f"{path!r} points outside the workspace (symlink); refused")
        if ".git" in full.relative_to(self.root).parts:
            raise ToolRefused("the .git directory is off limits; use git_diff or git_log")
        with contextlib.suppress(OSError):
            st = full.stat()
            if not full.is_dir() and st.st_nlink > 1:
                raise ToolRefused(f"{path!r} has other hard links (it may be a file outside the workspace); refused")
        return full

    def _rel(self, p: Path) -> str:
        return str(p.relative_to(self.root)) or "."

    def _inside(self, p: Path) -> bool:
        try:
            return p.resolve().is_relative_to(self.root)
        except OSError:
            return False

    # --- tools ---------------------------------------------------------------
    def read_file(self, path: str, start_line: int = 1, max_lines: int = 400) -> str:
        full = self.resolve(path)
        if not full.is_file():
            raise ToolRefused(f"{path!r} is not a file")
        with full.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if b"\0" in data[:8000]:
            return f"{path}: binary file ({full.stat().st_size} bytes), not shown"
        lines = data[:MAX_FILE_BYTES].decode(errors="replace").splitlines()
        start = max(1, int(start_line))
        chunk = lines[start - 1 : start - 1 + max(1, min(int(max_lines), 2000))]
        out = "\n".join(f"{i:>5}  {ln}" for i, ln in enumerate(chunk, start))
        if len(data) > MAX_FILE_BYTES:
            out += f"\n[... file larger than {MAX_FILE_BYTES} bytes; read further with start_line]"
        return out or f"{path}: empty"

    def list_dir(self, path: str = ".") -> str:
        full = self.root if path in (".", "") else self.resolve(path)
        if not full.is_dir():
            raise ToolRefused(f"{path!r} is not a directory")
        entries = []
        for child in sorted(full.iterdir(), key=lambda c: c.name)[:500]:
            if child.name in SKIP_DIRS:
                continue
            if child.is_symlink() and not self._inside(child):
                entries.append(f"{child.name} -> (outside the workspace)")
            else:
                entries.append(child.name + ("/" if child.is_dir() else ""))
        return "\n".join(entries) or "(empty)"

    def _walk(self, base: Path) -> Iterator[Path]:
        if base.is_file():
            if not self._linked(base):
                yield base
            return
        for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for fn in sorted(filenames):
                p = Path(dirpath) / fn
                if self._inside(p) and not self._linked(p):
                    yield p

    @staticmethod
    def _linked(p: Path) -> bool:
        """A file with other hard links may be a file outside the workspace under a new name."""
        try:
            st = p.stat()
        except OSError:
            return True
        return not p.is_dir() and st.st_nlink > 1

    def grep(self, pattern: str, path: str = ".", glob: str | None = None, max_matches: int = 100) -> str:
        if not isinstance(pattern, str) or not pattern or len(pattern) > 500:
            raise ToolRefused("pattern must be a regex of 1-500 characters")
        try:
            rx = re.compile(pattern)
        except re.error as e:
            raise ToolRefused(f"bad regex: {e}") from None
        del rx  # compiled only to refuse bad syntax early
        base = self.root if path in (".", "") else self.resolve(path)
        limit = max(1, min(int(max_matches), 500))
        files = []
        for f in self._walk(base):  # confinement is decided here, in this process
            if glob and not f.match(glob):
                continue
            try:
                if f.stat().st_size <= MAX_GREP_FILE_BYTES:
                    files.append([str(f), self._rel(f)])
            except OSError:
                continue
        # The model's regex runs in a child with a deadline: a catastrophic pattern
        # (e.g. ^(a+)+$) cannot hang the loop.
        res = self.runner([sys.executable, "-c", _GREP_CHILD], cwd=self.root, timeout=GREP_TIMEOUT,
                          stdin_text=json.dumps({"pattern": pattern, "files": files, "limit": limit}),
                          merge_output=False)
        if res.timed_out:
            raise ToolRefused(f"the search took over {GREP_TIMEOUT:g}s; use a simpler pattern")
        if res.exit_code != 0:
            return f"error: grep failed: {res.stderr.strip()[-300:]}"
        return res.stdout.rstrip("\n") or "(no matches)"

    def _git_env(self) -> dict[str, str]:
        return {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_ATTR_NOSYSTEM": "1"}

    def _neutralise(self) -> list[str]:
        """``-c KEY=`` for every repository config key that would run a program (read, never executed)."""
        if self._overrides is None:
            res = self.runner(["git", "config", "--local", "--list", "--name-only"], cwd=self.root, timeout=30,
                              env=self._git_env(), merge_output=False)
            keys = {k.strip() for k in res.stdout.splitlines() if _RUNS_CODE.match(k.strip())}
            self._overrides = [x for k in sorted(keys) for x in ("-c", f"{k}=")]
        return self._overrides

    def _git(self, *args: str) -> str:
        res = self.runner([*GIT_READONLY, *self._neutralise(), *args], cwd=self.root, timeout=30,
                          env=self._git_env(), merge_output=False)
        if res.exit_code != 0:
            return f"error: git {args[0]} failed: {(res.stderr or res.stdout).strip()[:500]}"
        return res.stdout or "(empty)"

    def _pathspec(self, path: str | None) -> list[str]:
        if path in (None, "", "."):
            return ["--", "."]
        return ["--", self._rel(self.resolve(path))]

    def git_diff(self, ref: str | None = None, path: str | None = None) -> str:
        if ref is not None and not _SAFE_REF.match(str(ref)):
            raise ToolRefused(f"ref {ref!r} is not a plain git revision")
        if self.diff_source is not None:  # the sealed checkpoints, not the workspace repository
            rel = None if path in (None, "", ".") else self._rel(self.resolve(str(path)))
            return self.diff_source(ref, rel) or "(no changes)"
        return self._git("diff", "--no-ext-diff", "--no-textconv", "--stat", "--patch",
                         *([str(ref)] if ref else []), *self._pathspec(path))

    def git_log(self, n: int = 10, path: str | None = None) -> str:
        count = max(1, min(int(n), 100))
        return self._git("log", "--oneline", "--no-decorate", f"-n{count}", *self._pathspec(path))


GREP_TIMEOUT = 20.0
_GREP_CHILD = """
import json, re, sys
job = json.load(sys.stdin)
rx, limit, hits = re.compile(job["pattern"]), job["limit"], []
for path, rel in job["files"]:
    try:
        data = open(path, "rb").read()
    except OSError:
        continue
    if b"\\0" in data[:8000]:
        continue
    for n, line in enumerate(data.decode(errors="replace").splitlines(), 1):
        if rx.search(line):
            hits.append(f"{rel}:{n}: {line[:300]}")
            if len(hits) >= limit:
                print("\\n".join(hits) + f"\\n[... stopped at {limit} matches]")
                sys.exit(0)
print("\\n".join(hits))
"""


def sealed_diff(goal_id: str, iteration: int | None = None, *, root: Path | None = None,
                paths: tuple[str, ...] = ()) -> str:
    """The change from the goal's baseline to ``iteration``'s checkpoint (the tree that was checked),
    from goalkeeper's private checkpoint store: no workspace git config or attribute is involved."""
    from ..store.home import home
    from .checkpoints import Checkpoint
    from .persist import load_goal
    from .seal import Seal

    goal = load_goal(goal_id, root)
    seal = Seal(goal, Path(goal.workspace or ".").resolve(), (root or home()).resolve())
    base = seal.baseline_checkpoint
    recs = [h for h in goal.history if h.checkpoint and h.checkpoint_tree and not h.rejected
            and (iteration is None or h.iteration == iteration)]
    if base is None or not recs:
        return ""
    rec = recs[-1]
    assert rec.checkpoint and rec.checkpoint_tree
    return seal.store.diff(base, Checkpoint(rec.checkpoint, rec.checkpoint_tree), paths)


def iteration_diff(workspace: Path, goal_id: str, iteration: int, *, runner: Runner = run_argv,
                   limit: int = 12_000) -> str:
    """What the maker has changed up to ``iteration``, as sealed: the baseline against its checkpoint."""
    del workspace, runner
    try:
        text = sealed_diff(goal_id, iteration)
    except Exception as e:  # no diff is information for the judge, never a crash of the loop
        return f"(no diff available: {type(e).__name__}: {str(e)[:200]})"
    return _cap(text, limit) if text else "(no changes since the baseline)"
