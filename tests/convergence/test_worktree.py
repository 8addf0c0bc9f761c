from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from goalkeeper.convergence.worktree import (
    checkpoint,
    count_markers,
    glob_match,
    marker_increases,
    protected_changes,
    restore,
    snapshot,
)

from .helpers import git


def test_snapshot_respects_gitignore_and_state_dirs(make_repo: Callable[..., Path]) -> None:
    ws = make_repo({"a.py": "x = 1\n", ".gitignore": "build/\n"})
    s1 = snapshot(ws)
    (ws / "build").mkdir()
    (ws / "build" / "out.bin").write_text("junk")
    (ws / "__pycache__").mkdir()
    (ws / "__pycache__" / "a.pyc").write_text("junk")
    (ws / ".goalkeeper").mkdir()
    (ws / ".goalkeeper" / "g.json").write_text("{}")
    assert snapshot(ws).digest == s1.digest
    (ws / "b.py").write_text("y = 2\n")  # untracked but not ignored: counts
    s2 = snapshot(ws)
    assert s2.digest != s1.digest and "b.py" in s2.files


def test_snapshot_without_git(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("1")
    s = snapshot(tmp_path)
    (tmp_path / "x.txt").write_text("2")
    assert snapshot(tmp_path).digest != s.digest


def test_glob_match() -> None:
    pats = ["test_*.py", "tests/**", ".github/**", "pyproject.toml"]
    assert glob_match("tests/unit/a.py", pats)
    assert glob_match("pkg/test_mod.py", pats)
    assert glob_match(".github/workflows/ci.yml", pats)
    assert glob_match("sub/pyproject.toml", pats)
    assert not glob_match("src/mod.py", pats)


def test_protected_changes(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text("def test(): pass\n")
    (tmp_path / "test_b.py").write_text("def test(): pass\n")
    base = snapshot(tmp_path)
    baseline = dict(base.files)
    (tmp_path / "test_a.py").unlink()
    (tmp_path / "test_b.py").write_text("def test(): assert True\n")
    found = protected_changes(baseline, snapshot(tmp_path))
    assert found == ["deleted protected file test_a.py", "edited protected file test_b.py"]


def test_skip_markers(tmp_path: Path) -> None:
    f = tmp_path / "test_x.py"
    f.write_text("def test(): pass\n")
    before = snapshot(tmp_path)
    f.write_text("import pytest\n@pytest.mark.skip\ndef test(): pass\n")
    assert count_markers(f) == 1
    found = marker_increases(tmp_path, before, snapshot(tmp_path), {})
    assert found and "test_x.py" in found[0]
    assert marker_increases(tmp_path, before, snapshot(tmp_path), {"test_x.py": 1}) == []


def test_checkpoint_and_restore_leave_head_and_index_alone(make_repo: Callable[..., Path]) -> None:
    ws = make_repo({"a.py": "v1\n", "keep.txt": "k\n"})
    head = git(ws, "rev-parse", "HEAD")
    git(ws, "add", "keep.txt")
    index_before = (ws / ".git" / "index").read_bytes()
    (ws / "a.py").write_text("v2\n")
    (ws / "new.py").write_text("n\n")
    sha = checkpoint(ws, "refs/goalkeeper/goal-abcd1234/1", "cp1")
    assert sha and git(ws, "rev-parse", "refs/goalkeeper/goal-abcd1234/1").strip() == sha
    assert git(ws, "show", f"{sha}:a.py") == "v2\n"
    (ws / "a.py").write_text("v3\n")
    (ws / "junk.py").write_text("j\n")
    (ws / "new.py").unlink()
    deleted = restore(ws, "refs/goalkeeper/goal-abcd1234/1")
    assert deleted == ["junk.py"]
    assert (ws / "a.py").read_text() == "v2\n" and (ws / "new.py").read_text() == "n\n"
    assert git(ws, "rev-parse", "HEAD") == head
    assert (ws / ".git" / "index").read_bytes() == index_before
    assert "refs/goalkeeper" not in git(ws, "branch", "-a")


def test_checkpoint_in_a_subdirectory_workspace(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"outside.txt": "o\n", "sub/a.py": "1\n"})
    ws = repo / "sub"
    checkpoint(ws, "refs/goalkeeper/goal-abcd1234/0", "cp0")
    (ws / "a.py").write_text("2\n")
    (ws / "b.py").write_text("b\n")
    (repo / "outside.txt").write_text("changed\n")
    assert restore(ws, "refs/goalkeeper/goal-abcd1234/0") == ["b.py"]
    assert (ws / "a.py").read_text() == "1\n"
    assert (repo / "outside.txt").read_text() == "changed\n"  # outside the workspace: untouched


def test_checkpoint_outside_git_is_none(tmp_path: Path) -> None:
    assert checkpoint(tmp_path, "refs/goalkeeper/x/1", "m") is None
