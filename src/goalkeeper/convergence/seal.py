"""The seal of one goal: what every verdict is compared with, and the checks on each tree.

At goal start (:meth:`Seal.take_baseline`) goalkeeper records

* the whole workspace tree (:mod:`.tree`) and its checkpoint in the goal's
  private repository (:mod:`.checkpoints`),
* the toolchain the checks execute (:mod:`.toolchain`),
* a reference run of every stopping condition, sealed, on the untouched
  tree: which tests exist and how each ended, so later runs can be compared
  (a test may not disappear, skips may not rise).

After each maker run, :meth:`Seal.findings` lists everything that rejects
the iteration: protected paths changed (:mod:`.protect`), suppressions,
skips, runner references, opaque code, shadowing modules or links out of
the workspace (:mod:`.scan`), and toolchain changes.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError, CorruptStateError
from ..proc import Runner, bwrap_path, run_argv, split_command
from ..store.atomic import read_json, write_json_atomic
from ..store.safe import read_bounded
from . import ledger
from .checkbox import Box, box_mode
from .checkpoints import Checkpoint, CheckpointStore
from .conditions import SealedRun, run_sealed
from .goal import Goal
from .protect import (
    Finding,
    check_sections_changed,
    classify,
    glob_match,
    output_folder,
    protected_findings,
)
from .scan import scan_changes
from .toolchain import Fingerprint, changed_paths, fingerprint, resolve_command
from .tree import Hasher, Tree, is_cache, walk

__all__ = ["Seal"]

_PKG_DIR = str(Path(__file__).resolve().parent.parent)  # goalkeeper itself runs the checks
_CONFIG_LIMIT = 4 << 20  # a pyproject.toml / setup.cfg / tox.ini larger than this is no config


def _unreadable(problem: str) -> Exception:
    return ConfigError(problem)


class Seal:
    def __init__(self, goal: Goal, ws: Path, home: Path, *, runner: Runner = run_argv) -> None:
        self.goal = goal
        self.ws = ws
        self.home = home
        self.runner = runner
        self.hasher = Hasher()
        self.store = CheckpointStore(home / "checkpoints" / f"{goal.goal_id}.git",
                                     include_credentials=goal.guards.include_credentials)
        self._data: dict[str, Any] | None = None

    # --- persistence -----------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.home / "goals" / f"{self.goal.goal_id}.seal.json"

    def data(self) -> dict[str, Any]:
        if self._data is None:
            try:
                raw = read_json(self.path)
            except FileNotFoundError:
                raise CorruptStateError(
                    f"{self.path} is missing: goal {self.goal.goal_id} has no sealed baseline; "
                    "start it over with `goalkeeper goal new`"
                ) from None
            if not isinstance(raw, dict) or not isinstance(raw.get("tree"), dict):
                raise CorruptStateError(f"{self.path}: not a goalkeeper seal")
            if self.goal.baseline.get("sealDigest") and raw.get("digest") != self.goal.baseline.get("sealDigest"):
                raise CorruptStateError(f"{self.path} does not match the digest recorded in the goal; refusing it")
            self._data = raw
        return self._data

    @property
    def baseline_tree(self) -> Tree:
        t = self.data()["tree"]
        return Tree(str(t["digest"]), dict(t["files"]), tuple(t.get("envDirs") or ()))

    @property
    def baseline_checkpoint(self) -> Checkpoint | None:
        cp = self.data().get("checkpoint")
        return Checkpoint(cp["commit"], cp["tree"]) if isinstance(cp, dict) else None

    @property
    def toolchain(self) -> Fingerprint:
        return Fingerprint.load(self.data().get("toolchain") or {})

    @property
    def outcomes(self) -> list[dict[str, Any] | None]:
        return list(self.data().get("outcomes") or [])

    @property
    def protect(self) -> list[str]:
        return [*self.goal.guards.protected_paths, *(self.data().get("autoProtect") or [])]

    # --- the tree ---------------------------------------------------------------------------
    def walk(self, *, baseline: bool = False) -> Tree:
        envs = None if baseline else self.baseline_tree.env_dirs
        return walk(self.ws, exclude=[self.home], hasher=self.hasher, env_dirs=envs)

    def _auto_protect(self) -> list[str]:
        """Files named in a condition's argv are part of the check (``python scripts/check.py``)."""
        found = []
        for c in self.goal.stopping_conditions:
            for arg in split_command(c.command)[0:]:
                p = (self.ws / arg) if not os.path.isabs(arg) else Path(arg)
                try:
                    rel = p.resolve().relative_to(self.ws)
                except (ValueError, OSError):
                    continue
                if p.is_file():
                    found.append(str(rel).replace(os.sep, "/"))
        return sorted(set(found))

    def _toolchain(self, env: Mapping[str, str]) -> Fingerprint:
        exes, interps = [], []
        for c in self.goal.stopping_conditions:
            r = resolve_command(split_command(c.command), self.ws, env, sys.executable)
            if r.executable:
                exes.append(r.executable)
            if r.interpreter:
                interps.append(r.interpreter)
        fp = fingerprint(exes, interps, env, exclude=str(self.ws))
        roots = fp.roots if any(_PKG_DIR.startswith(r) for r in fp.roots) else (*fp.roots, _PKG_DIR)
        return dataclasses.replace(fp, roots=tuple(roots)).refresh()

    def take_baseline(self, *, owner: str | None = None) -> dict[str, Any]:
        """Hash the tree, fingerprint the toolchain, checkpoint, and run every check once."""
        tree = self.walk(baseline=True)
        env = {**os.environ, **self.goal.condition_env}
        fp = self._toolchain(env)
        cp = None
        if self.goal.guards.checkpoint:
            cp = self.store.commit(self.ws, tree, f"goalkeeper {self.goal.goal_id} baseline",
                                   ref=f"refs/goalkeeper/{self.goal.goal_id}/0")
        self._data = {"tree": {"digest": tree.digest, "files": dict(tree.files), "envDirs": list(tree.env_dirs)},
                      "toolchain": fp.dump(), "outcomes": [], "autoProtect": self._auto_protect(),
                      "checkpoint": {"commit": cp.commit, "tree": cp.tree} if cp else None,
                      "checksBox": box_mode(self.goal.maker.sandbox)}
        run = self.run_checks(owner=owner, baseline=True)
        after = self.walk()
        if after.digest != tree.digest:
            changed = _changes(tree, after)
            unexpected = [p for p in changed if not glob_match(p, self.goal.guards.check_outputs)]
            if unexpected:
                raise ConfigError(
                    f"goal {self.goal.goal_id}: the stopping conditions change the workspace when they run "
                    f"({', '.join(unexpected[:8])}); a check that writes files would void every iteration. "
                    "Point its output elsewhere, or list the files with --check-output GLOB"
                )
        self._data["outcomes"] = run.outcomes
        self._data["testData"] = self._test_data(tree, run.outcomes)
        self._data["results"] = [r.dump() for r in run.results]
        self._data["digest"] = _seal_digest(self._data)
        write_json_atomic(self.path, self._data)
        return {"tree": tree.digest, "files": len(tree.files), "toolchain": fp.digest,
                "checkpoint": cp.commit if cp else None, "sealDigest": self._data["digest"],
                "checksBox": self._data["checksBox"], "results": run.results}

    def _test_data(self, tree: Tree, outcomes: list[dict[str, Any] | None]) -> list[str]:
        """Files of the baseline the test code read (expected outputs, fixtures, snapshots): sealed."""
        g = self.goal.guards
        found = set()
        for o in outcomes:
            inner = (o or {}).get("outcomes")
            for rel in (inner if isinstance(inner, dict) else {}).get("reads") or []:
                rel = str(rel).replace(os.sep, "/")
                if rel in tree.files and not glob_match(rel, g.check_outputs) and classify(rel, tests=g.test_paths) is None:
                    found.add(rel)
        return sorted(found)

    @property
    def test_data(self) -> list[str]:
        return list(self.data().get("testData") or [])

    def run_checks(self, *, owner: str | None = None, baseline: bool = False, tree: Tree | None = None) -> SealedRun:
        new_tests: list[str] = []
        old_tests: list[str] = []
        new_sources: list[str] = []
        if not baseline and tree is not None:
            base = self.baseline_tree
            g = self.goal.guards
            for rel in tree.files:
                if not rel.endswith(".py"):
                    continue
                kind = classify(rel, tests=g.test_paths)
                if kind == "test":
                    (old_tests if rel in base.files else new_tests).append(rel)
                elif kind is None and rel not in base.files and not is_cache(rel):
                    new_sources.append(rel)
        return run_sealed(self.goal.stopping_conditions, self.ws, baselines=[] if baseline else self.outcomes,
                          extra_env=self.goal.condition_env, runner=self.runner, owner=owner,
                          new_tests=sorted(new_tests), old_tests=sorted(old_tests),
                          new_sources=sorted(new_sources), box=self.box(),
                          env_dirs=None if baseline else self.baseline_tree.env_dirs,
                          after_step=None if baseline or tree is None else self._between(tree))

    def _between(self, pre: Tree) -> Callable[[], list[str]]:
        """A walk after each check step: a config file written there steers the steps after it, even
        when a later step removes it before the walk after all the checks."""
        outputs = self.goal.guards.check_outputs

        def check() -> list[str]:
            now = self.walk()
            bad = [rel for rel in sorted(set(pre.files) | set(now.files))
                   if pre.files.get(rel) != now.files.get(rel) and classify(rel, protect=self.protect) == "seal"
                   and not glob_match(rel, outputs)
                   and not (rel.endswith("/.gitignore") and rel not in pre.files and output_folder(rel, pre, now))]
            return [f"a check wrote config files the next checks read: {', '.join(bad[:5])}"] if bad else []

        return check

    def box(self) -> Box:
        """How the checks are contained: as the baseline ran them (a seal from before boxes: none)."""
        mode = str(self.data().get("checksBox") or "none")
        if mode == "bwrap" and bwrap_path() is None:
            raise ConfigError(f"goal {self.goal.goal_id}: its baseline checks ran in bubblewrap, which cannot run "
                              "here now; install bubblewrap (apt-get install bubblewrap) to go on, or start the "
                              "goal over with --sandbox none")
        if mode != "bwrap":
            return Box()
        tc = self.toolchain
        roots = tuple(Path(p) for p in (*tc.roots, *tc.top_roots) if os.path.isabs(p))
        return Box(mode, (self.home, ledger.keys_dir()), roots)

    # --- what rejects an iteration ----------------------------------------------------------
    def toolchain_changes(self) -> list[str]:
        before = self.toolchain
        now = before.refresh()
        if now.digest == before.digest:
            return []
        allow = self.goal.guards.allow_edit
        return [p for p in changed_paths(before, now) if not _allowed(p, self.ws, allow)]

    def _read_small(self, rel: str) -> bytes | None:
        try:
            return read_bounded(self.ws / rel, limit=1 << 20, root=self.ws, refuse=_unreadable)
        except (OSError, ConfigError):
            return None  # not a plain file of sane size: judged as not fixture-only

    def findings(self, tree: Tree) -> list[Finding]:
        g = self.goal.guards
        base = self.baseline_tree
        found = protected_findings(base, tree, protect=self.protect, tests=g.test_paths, allow=g.allow_edit,
                                   read=self._read_small)
        for rel in self.test_data:
            if tree.files.get(rel) != base.files.get(rel) and not glob_match(rel, g.allow_edit):
                what = "deleted" if rel not in tree.files else "edited"
                found.append(Finding("protected", rel, f"{what} {rel}, which the baseline tests read as data "
                                                       "(an expected output or fixture); --allow-edit it if intended"))
        cp = self.baseline_checkpoint
        entries = self.store.entries(cp) if cp else {}

        def read(rel: str) -> bytes | None:
            e = entries.get(rel)
            return self.store.read_blobs([e[1]])[e[1]] if e else None

        found += scan_changes(base, tree, self.ws, read, tests=g.test_paths, allow=g.allow_edit,
                              toolchain_modules=self.toolchain.modules)
        found += self._allowed_but_sealed(base, tree, read)
        for p in self.toolchain_changes()[:20]:
            found.append(Finding("toolchain", p, f"the checks' toolchain changed: {p}"))
        return found

    def _allowed_but_sealed(self, base: Tree, tree: Tree, read: Any) -> list[Finding]:
        """An --allow-edit-ed pyproject.toml/setup.cfg/tox.ini may change, but not the sections the checks read."""
        out = []
        for rel in sorted(set(base.files) | set(tree.files)):
            if base.files.get(rel) == tree.files.get(rel) or not glob_match(rel, self.goal.guards.allow_edit):
                continue
            if rel.rsplit("/", 1)[-1] not in ("pyproject.toml", "setup.cfg", "tox.ini"):
                continue
            now = tree.files.get(rel)
            if now is not None and not now.startswith(("f:", "x:")):
                continue  # a link, FIFO or device in its place: a finding of its own, never opened here
            old_b = read(rel)
            old = old_b.decode("utf-8", "replace") if old_b is not None else None
            new = None
            if now is not None:
                try:  # regular, bounded, no link followed: the maker chose what is there
                    new = read_bounded(self.ws / rel, limit=_CONFIG_LIMIT, root=self.ws,
                                       refuse=_unreadable).decode("utf-8", "replace")
                except (OSError, ConfigError, CorruptStateError):
                    new = None
            changed = check_sections_changed(rel, old, new)
            if changed:
                out.append(Finding("protected", rel, f"changed {', '.join(changed[:4])} in {rel}: --allow-edit lets "
                                                     "dependencies and metadata change, not how the checks run"))
        return out

    # --- checkpoints ------------------------------------------------------------------------
    def checkpoint(self, tree: Tree, message: str, parent: Checkpoint | None, ref: str) -> Checkpoint | None:
        if not self.goal.guards.checkpoint:
            return None
        return self.store.commit(self.ws, tree, message, parent=parent.commit if parent else None, ref=ref)

    def restore(self, cp: Checkpoint, current: Tree | None = None) -> tuple[list[str], list[str]]:
        return self.store.restore(self.ws, cp, current or self.walk())


def _allowed(path: str, ws: Path, allow: Iterable[str]) -> bool:
    try:
        rel = str(Path(path).relative_to(ws)).replace(os.sep, "/")
    except ValueError:
        rel = path
    return glob_match(rel, allow) or glob_match(path, allow)


def _changes(a: Tree, b: Tree) -> list[str]:
    return sorted(p for p in set(a.files) | set(b.files) if a.files.get(p) != b.files.get(p))


def _seal_digest(data: Mapping[str, Any]) -> str:
    import hashlib
    import json

    body = {k: v for k, v in data.items() if k != "digest"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def describe(command: str | list[str]) -> str:
    return command if isinstance(command, str) else shlex.join(command)
