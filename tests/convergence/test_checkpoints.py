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


def _rewrite_loose(store: CheckpointStore, oid: str, kind: bytes, data: bytes) -> None:
    """What a process with write access to the store can do: refile other bytes under an id."""
    import zlib

    path = store.gitdir / "objects" / oid[:2] / oid[2:]
    os.chmod(path, 0o644)
    path.write_bytes(zlib.compress(kind + b" %d\0" % len(data) + data))


def test_a_rewritten_blob_is_refused_when_read(make_repo: Callable[..., Path], store: CheckpointStore) -> None:
    from goalkeeper.errors import IntegrityError

    ws = make_repo({"a.py": "import os\n", "b.py": "ok\n"})
    cp = store.commit(ws, walk(ws), "base")
    sha = store.entries(cp)["a.py"][1]
    assert store.read_blobs([sha]) == {sha: b"import os\n"}
    _rewrite_loose(store, sha, b"blob", b"import os  # noqa: F401\n")
    assert subprocess.run(["git", "--git-dir", str(store.gitdir), "cat-file", "-p", sha], capture_output=True,
                          check=True).stdout == b"import os  # noqa: F401\n"  # git itself hands it back
    with pytest.raises(IntegrityError, match="does not match its id"):
        store.read_blobs([sha])
    with pytest.raises(IntegrityError):
        store.read_file(cp, "a.py")
    (ws / "a.py").write_text("changed\n")
    with pytest.raises(IntegrityError):
        store.restore(ws, cp, walk(ws))
    assert (ws / "a.py").read_text() == "changed\n"  # nothing was written from the forged store


def test_a_rewritten_tree_is_refused(make_repo: Callable[..., Path], store: CheckpointStore) -> None:
    from goalkeeper.errors import IntegrityError

    ws = make_repo({"a.py": "import os\n", "d/b.py": "ok\n"})
    cp = store.commit(ws, walk(ws), "base")
    assert {"a.py", "d/b.py"} <= set(store.entries(cp))
    forged = store._git(["hash-object", "-w", "--stdin"], stdin=b"import os  # noqa\n").decode().strip()
    raw = store._git(["cat-file", "tree", cp.tree])
    _rewrite_loose(store, cp.tree, b"tree", raw.replace(bytes.fromhex(store.entries(cp)["a.py"][1]),
                                                         bytes.fromhex(forged)))
    with pytest.raises((IntegrityError, ConfigError)):  # git's own peeling notices a forged tree too
        store.entries(cp)
    with pytest.raises(IntegrityError, match=f"tree {cp.tree} does not match"):
        store._objects([cp.tree], "tree")


def test_a_diff_does_not_show_a_rewritten_blob(make_repo: Callable[..., Path], store: CheckpointStore) -> None:
    from goalkeeper.errors import IntegrityError

    ws = make_repo({"a.py": "one\n"})
    a = store.commit(ws, walk(ws), "a")
    (ws / "a.py").write_text("two\n")
    b = store.commit(ws, walk(ws), "b", parent=a.commit)
    assert "+two" in store.diff(a, b)
    _rewrite_loose(store, store.entries(a)["a.py"][1], b"blob", b"two\n")
    with pytest.raises(IntegrityError):
        store.diff(a, b)
