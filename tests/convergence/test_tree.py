"""The workspace as evidence: the whole file system tree, not git's view of it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from goalkeeper.convergence.tree import Hasher, diff_trees, walk


def test_ignored_files_caches_and_git_exclude_are_all_seen(make_repo: Callable[..., Path]) -> None:
    ws = make_repo({".gitignore": "hidden.py\nbuild/\n", "a.py": "x = 1\n"})
    (ws / "hidden.py").write_text("ignored by git, seen by us\n")
    (ws / "build").mkdir()
    (ws / "build" / "conftest.py").write_text("# planted\n")
    (ws / "__pycache__").mkdir()
    (ws / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0" * 16)
    (ws / ".git" / "info").mkdir(exist_ok=True)
    (ws / ".git" / "info" / "exclude").write_text("secret_test.py\n")
    t = walk(ws)
    for rel in ("hidden.py", "build/conftest.py", "__pycache__/a.cpython-311.pyc", ".git/info/exclude", "a.py"):
        assert rel in t.files, rel
    assert not any(r.startswith(".git/objects") for r in t.files)
    # caches are part of the seal but not of "did the maker change anything"
    (ws / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\1" * 16)
    t2 = walk(ws)
    assert t2.digest != t.digest and t2.source_digest == t.source_digest


def test_environments_are_detected_only_at_the_baseline(tmp_path: Path) -> None:
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / ".venv" / "lib.py").write_text("x\n")
    base = walk(tmp_path)
    assert base.env_dirs == (".venv",) and ".venv/lib.py" not in base.files
    # a maker cannot hide files by turning a new directory into an "environment"
    (tmp_path / "hide").mkdir()
    (tmp_path / "hide" / "pyvenv.cfg").write_text("\n")
    (tmp_path / "hide" / "fixed.py").write_text("x\n")
    later = walk(tmp_path, env_dirs=base.env_dirs)
    assert "hide/fixed.py" in later.files and "hide/pyvenv.cfg" in later.files
    added, changed, deleted = diff_trees(base, later)
    assert added == ["hide/fixed.py", "hide/pyvenv.cfg"] and not changed and not deleted


def test_an_edit_with_its_mtime_restored_is_still_seen(tmp_path: Path) -> None:
    f = tmp_path / "code.py"
    f.write_text("return 1\n")
    h = Hasher()
    first = walk(tmp_path, hasher=h)
    st = f.stat()
    time.sleep(0.01)
    f.write_text("return 2\n")  # same size
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert walk(tmp_path, hasher=h).files["code.py"] != first.files["code.py"]


def test_special_files_and_links_are_recorded_never_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    os.symlink("/etc/passwd", tmp_path / "link")
    t = walk(tmp_path)  # would block forever if the FIFO were opened
    assert t.files["pipe"].startswith("s:") and t.files["link"].startswith("l:")


def test_the_state_dir_is_left_out(tmp_path: Path) -> None:
    (tmp_path / ".goalkeeper").mkdir()
    (tmp_path / ".goalkeeper" / "goal.json").write_text("{}")
    assert walk(tmp_path, exclude=[tmp_path / ".goalkeeper"]).files == {}


def test_only_the_root_git_folder_is_left_out(tmp_path: Path) -> None:
    (tmp_path / ".git" / "objects").mkdir(parents=True)
    (tmp_path / ".git" / "objects" / "x").write_text("object")
    (tmp_path / "vendored" / ".git" / "info").mkdir(parents=True)
    (tmp_path / "vendored" / ".git" / "info" / "exclude").write_text("*.py\n")
    files = walk(tmp_path).files
    assert "vendored/.git/info/exclude" in files and ".git/objects/x" not in files


def test_a_symlink_is_hashed_with_what_it_shows(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "code.py").write_text("x = 1\n")
    os.symlink("real/code.py", tmp_path / "link.py")
    before = walk(tmp_path, exclude=[tmp_path / "real"])  # the target itself out of the walk
    (tmp_path / "real" / "code.py").write_text("x = 2\n")
    after = walk(tmp_path, exclude=[tmp_path / "real"])
    assert before.files["link.py"] != after.files["link.py"]  # same link text, different content
    os.symlink("nowhere", tmp_path / "dangling")
    assert walk(tmp_path).files["dangling"].startswith("l:")
