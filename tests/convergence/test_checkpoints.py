"""Checkpoints in a private git dir: nothing of the workspace's git config, hooks or attributes runs."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.convergence.checkpoints import Checkpoint, CheckpointStore
from goalkeeper.convergence.tree import walk
from goalkeeper.errors import ConfigError

from .helpers import git


@pytest.fixture
def store(tmp_path: Path) -> CheckpointStore:
    return CheckpointStore(tmp_path / "state" / "cp.git")


def test_commit_and_restore_are_exact_and_leave_the_workspace_repo_alone(
        make_repo: Callable[..., Path], store: CheckpointStore) -> None:
    ws = make_repo({"a.txt": "one\r\n", "run.sh": "#!/bin/sh\n", "d/b.txt": "b\n"})
    os.chmod(ws / "run.sh", 0o755)
    head = git(ws, "rev-parse", "HEAD")
    index = (ws / ".git" / "index").read_bytes()
    cp = store.commit(ws, walk(ws), "base")
    (ws / "a.txt").write_text("changed\n")
    (ws / "d" / "b.txt").unlink()
    (ws / "new.txt").write_text("added\n")
    write, delete = store.restore(ws, cp, walk(ws))
    assert sorted(write) == ["a.txt", "d/b.txt"] and delete == ["new.txt"]
    assert (ws / "a.txt").read_bytes() == b"one\r\n" and os.access(ws / "run.sh", os.X_OK)
    assert git(ws, "rev-parse", "HEAD") == head and (ws / ".git" / "index").read_bytes() == index
    assert "refs/goalkeeper" not in git(ws, "for-each-ref")


def test_workspace_filters_hooks_and_attributes_never_run(make_repo: Callable[..., Path], store: CheckpointStore,
                                                          tmp_path: Path) -> None:
    ws = make_repo({"a.txt": "plain\n"})
    marker = tmp_path / "ran"
    for key, cmd in (("filter.evil.clean", f"touch {marker}; cat"), ("filter.evil.smudge", f"touch {marker}; cat"),
                     ("diff.evil.textconv", f"touch {marker}; cat"), ("core.fsmonitor", f"touch {marker}")):
        git(ws, "config", key, cmd)
    (ws / ".gitattributes").write_text("* filter=evil diff=evil text eol=crlf\n")
    hook = ws / ".git" / "hooks" / "reference-transaction"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    cp = store.commit(ws, walk(ws), "base", ref="refs/goalkeeper/x/0")
    (ws / "a.txt").write_text("edit\n")
    store.restore(ws, cp, walk(ws))
    store.diff(cp, cp)
    assert not marker.exists()
    assert (ws / "a.txt").read_bytes() == b"plain\n"  # no eol conversion either


def test_credentials_are_hashed_but_never_stored(tmp_path: Path, store: CheckpointStore) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".env").write_text("API_KEY=sk-live-123\n")
    (ws / "server.pem").write_text("-----BEGIN PRIVATE KEY-----\n")
    (ws / "app.py").write_text("x\n")
    tree = walk(ws)
    assert ".env" in tree.files
    cp = store.commit(ws, tree, "base")
    assert sorted(store.entries(cp)) == ["app.py"]
    objects = subprocess.run(["git", "--git-dir", str(store.gitdir), "cat-file", "--batch-all-objects",
                              "--batch"], capture_output=True).stdout
    assert b"sk-live-123" not in objects and b"PRIVATE KEY" not in objects
    (ws / "app.py").write_text("y\n")
    store.restore(ws, cp, walk(ws))
    assert (ws / ".env").exists()  # a restore never deletes what it cannot bring back


def test_a_moved_or_forged_checkpoint_is_refused(tmp_path: Path, store: CheckpointStore) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "test_x.py").write_text("def test(): assert add(1, 1) == 2\n")
    cp = store.commit(ws, walk(ws), "base")
    (ws / "test_x.py").write_text("def test(): pass\n")
    weak = store.commit(ws, walk(ws), "weakened")
    with pytest.raises(ConfigError, match="does not hold its recorded tree"):
        store.verify(Checkpoint(cp.commit, weak.tree))


def test_a_planted_symlink_never_redirects_a_restore(tmp_path: Path, store: CheckpointStore) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (ws / "pkg").mkdir()
    (ws / "pkg" / "mod.py").write_text("good\n")
    cp = store.commit(ws, walk(ws), "base")
    (ws / "pkg" / "mod.py").unlink()
    (ws / "pkg").rmdir()
    os.symlink(outside, ws / "pkg")
    store.restore(ws, cp, walk(ws))
    assert (ws / "pkg").is_dir() and not (ws / "pkg").is_symlink()
    assert (ws / "pkg" / "mod.py").read_text() == "good\n" and list(outside.iterdir()) == []
