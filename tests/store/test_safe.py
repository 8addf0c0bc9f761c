"""store.safe: bounded regular files, no link below the home, private modes, user modes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.errors import CorruptStateError, StoreError
from goalkeeper.store import FileLock, append_jsonl, read_json, read_jsonl, write_json_atomic
from goalkeeper.store.atomic import USER_FILE, read_data, write_text_atomic
from goalkeeper.store.safe import MAX_STATE_BYTES, read_bounded


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path, goalkeeper_home: Path) -> None:
    # In a child with a timeout: a regression would block forever on open() or read().
    fifo = goalkeeper_home / "goals" / "goal-aaaaaaaa.json"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    code = textwrap.dedent(f"""
        from goalkeeper.errors import CorruptStateError
        from goalkeeper.store import read_json
        try:
            read_json({str(fifo)!r})
        except CorruptStateError as e:
            print("refused:", e)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "GOALKEEPER_HOME": str(goalkeeper_home)})
    assert r.returncode == 0, r.stderr
    assert "refused:" in r.stdout and "is a FIFO, not a regular file" in r.stdout


def test_a_device_is_refused_before_reading(tmp_path: Path) -> None:
    link = tmp_path / "spec.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(CorruptStateError, match="is a device, not a regular file"):
        read_bounded(link, limit=1 << 20, follow_symlinks=True)


def test_a_huge_file_is_refused_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "state.json"
    with open(p, "wb") as f:
        f.truncate(MAX_STATE_BYTES + 1)  # sparse: costs nothing to create
    with pytest.raises(CorruptStateError, match="over the 64 MiB limit"):
        read_json(p)


def test_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    p = tmp_path / "x"
    p.write_bytes(b"x" * 10)
    assert read_bounded(p, limit=10) == b"x" * 10
    with pytest.raises(CorruptStateError, match="over the 9 bytes limit"):
        read_bounded(p, limit=9)


def test_a_linked_state_file_is_refused_and_its_target_untouched(goalkeeper_home: Path, tmp_path: Path) -> None:
    target = tmp_path / "secret.txt"
    target.write_text("do not touch\n")
    p = goalkeeper_home / "goals" / "goal-aaaaaaaa.json"
    p.parent.mkdir(parents=True)
    p.symlink_to(target)
    with pytest.raises(CorruptStateError, match="is a symbolic link; goalkeeper never follows links"):
        read_json(p)
    with pytest.raises(CorruptStateError, match="symbolic link"):
        FileLock(p).acquire()
    assert target.read_text() == "do not touch\n"


def test_a_linked_log_or_lock_is_refused(goalkeeper_home: Path, tmp_path: Path) -> None:
    target = tmp_path / "bashrc"
    target.write_text("original\n")
    d = goalkeeper_home / "runs" / "run-1"
    d.mkdir(parents=True)
    (d / "events.jsonl").symlink_to(target)
    (d / "lock").symlink_to(target)
    with pytest.raises(CorruptStateError, match="symbolic link"):
        append_jsonl(d / "events.jsonl", {"event": "x"})
    with pytest.raises(CorruptStateError, match="symbolic link"):
        FileLock(d / "lock").acquire()
    with pytest.raises(CorruptStateError, match="symbolic link"):
        list(read_jsonl(d / "events.jsonl"))
    assert target.read_text() == "original\n"  # never truncated, never appended to


def test_a_linked_folder_below_the_home_is_refused(goalkeeper_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    goalkeeper_home.mkdir()
    (goalkeeper_home / "goals").symlink_to(outside)
    with pytest.raises(CorruptStateError, match="goals is a symbolic link"):
        write_json_atomic(goalkeeper_home / "goals" / "goal-aaaaaaaa.json", {"x": 1})
    with pytest.raises(CorruptStateError, match="goals is a symbolic link"):
        read_json(goalkeeper_home / "goals" / "goal-aaaaaaaa.json")
    with pytest.raises(CorruptStateError, match="goals is a symbolic link"):
        FileLock(goalkeeper_home / "goals" / "goal-aaaaaaaa.lock").acquire()
    assert list(outside.iterdir()) == []


def test_replacing_a_link_replaces_the_link_not_its_target(goalkeeper_home: Path, tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("{}")
    p = goalkeeper_home / "state.json"
    goalkeeper_home.mkdir()
    p.symlink_to(target)
    write_json_atomic(p, {"v": 1})
    assert not p.is_symlink() and read_json(p) == {"v": 1}
    assert target.read_text() == "{}"


def test_the_home_itself_may_be_a_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "real-home"
    real.mkdir()
    link = tmp_path / "home-link"
    link.symlink_to(real)
    monkeypatch.setenv("GOALKEEPER_HOME", str(link))
    write_json_atomic(link / "goals" / "g.json", {"ok": True})
    assert read_json(link / "goals" / "g.json") == {"ok": True}
    assert (real / "goals" / "g.json").exists()


def test_everything_in_the_home_is_private(goalkeeper_home: Path) -> None:
    old = os.umask(0o022)
    try:
        write_json_atomic(goalkeeper_home / "goals" / "g.json", {"x": 1})
        append_jsonl(goalkeeper_home / "goals" / "g.events.jsonl", {"x": 1})
        FileLock(goalkeeper_home / "goals" / "g.lock").acquire().release()
    finally:
        os.umask(old)
    assert mode(goalkeeper_home) == 0o700
    assert mode(goalkeeper_home / "goals") == 0o700
    for name in ("g.json", "g.events.jsonl", "g.lock"):
        assert mode(goalkeeper_home / "goals" / name) == 0o600, name


def test_an_old_world_readable_log_becomes_private_on_append(goalkeeper_home: Path) -> None:
    log = goalkeeper_home / "e.jsonl"
    goalkeeper_home.mkdir()
    log.write_text('{"a": 1}\n')
    log.chmod(0o644)
    append_jsonl(log, {"a": 2})
    assert mode(log) == 0o600
    assert [r["a"] for r in read_jsonl(log)] == [1, 2]


def test_user_outputs_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "out" / "spec.yaml", "x: 1\n", mode=USER_FILE)
        write_text_atomic(tmp_path / "private.json", "{}")
    finally:
        os.umask(old)
    assert mode(tmp_path / "out" / "spec.yaml") == 0o644
    assert mode(tmp_path / "private.json") == 0o600


def test_a_folder_in_place_of_a_state_file(goalkeeper_home: Path) -> None:
    p = goalkeeper_home / "goals" / "goal-aaaaaaaa.json"
    p.mkdir(parents=True)
    with pytest.raises(CorruptStateError, match="is a folder"):
        read_json(p)
    with pytest.raises(StoreError):
        write_json_atomic(p, {})


def test_new_and_export_write_user_files_with_the_umask(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        r = run_cli("new", "--no-input", "-o", tmp_path / "spec.yaml", "--goal", "done=true",
                    "--fact", "done=file:done.txt", "--action", "finish: done=false -> done=true | touch done.txt")
        assert r.returncode == 0, r.stderr
        g = run_cli("goal", "new", "x", "--until", "true", "--maker", "true")
        assert g.returncode == 0, g.stderr
        e = run_cli("goal", "export", g.stdout.strip(), "-o", tmp_path / "goal.json")
        assert e.returncode == 0, e.stderr
    finally:
        os.umask(old)
    assert mode(tmp_path / "spec.yaml") == 0o644
    assert mode(tmp_path / "goal.json") == 0o644
    home = tmp_path / "gk-home"
    private = [p for p in home.rglob("*") if p.is_file()]
    assert private and all(mode(p) == 0o600 for p in private), [(p, oct(mode(p))) for p in private]
    assert all(mode(p) == 0o700 for p in [home, *[d for d in home.rglob("*") if d.is_dir()]])


def test_read_data_is_bounded_and_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "hb.yaml"
    p.write_text("scans:\n  - name: a\n    timeout: .inf\n")
    with pytest.raises(StoreError, match=r"hb.yaml: line 3: scans\[0\].timeout: inf is not a finite number"):
        read_data(p, refuse=lambda m: StoreError(f"{p}: {m}"))
    p.write_text("a: 1\na: 2\n")
    with pytest.raises(StoreError, match="line 2: a: duplicate key"):
        read_data(p, refuse=lambda m: StoreError(f"{p}: {m}"))
