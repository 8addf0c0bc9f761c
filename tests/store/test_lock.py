"""store.lock: one holder at a time, across processes; the kernel frees a dead holder's lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from goalkeeper.errors import LockedError, StoreError
from goalkeeper.store import FileLock

HOLDER = textwrap.dedent(
    """
    import sys, time
    from goalkeeper.store import FileLock
    lock = FileLock(sys.argv[1], what="run r-1").acquire()
    print("held", flush=True)
    sys.stdin.readline()  # hold until told (or killed)
    lock.release()
    print("released", flush=True)
    """
)

TRY = textwrap.dedent(
    """
    import sys
    from goalkeeper.errors import LockedError
    from goalkeeper.store import FileLock
    try:
        with FileLock(sys.argv[1], what="run r-1"):
            print("acquired")
    except LockedError as e:
        print("locked:", e)
        sys.exit(3)
    """
)


@pytest.fixture
def holder(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A second process that holds the lock until its stdin gets a line."""
    path = tmp_path / "run.lock"
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    yield proc, path
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)


def test_acquire_release_and_reacquire(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "x.lock"
    lock = FileLock(path).acquire()
    assert path.read_text() == str(os.getpid())
    lock.release()
    lock.release()  # idempotent
    with FileLock(path):
        pass
    with FileLock(path):
        pass


def test_second_holder_in_same_process_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    with FileLock(path, what="goal g-1"), pytest.raises(LockedError) as ei:
        FileLock(path, what="goal g-1").acquire()
    assert str(ei.value).startswith(f"goal g-1 is already running (pid {os.getpid()})")
    assert isinstance(ei.value, StoreError)
    with FileLock(path):  # released by the context manager
        pass


def test_other_process_holding_refuses_us(holder: tuple[subprocess.Popen[str], Path]) -> None:
    proc, path = holder
    with pytest.raises(LockedError) as ei:
        FileLock(path, what="run r-1").acquire()
    assert f"(pid {proc.pid})" in str(ei.value)
    assert "run r-1 is already running" in str(ei.value)
    assert path.read_text() == str(proc.pid)  # the refused attempt did not clobber the holder's pid


def test_we_holding_refuses_other_process(tmp_path: Path) -> None:
    path = tmp_path / "run.lock"
    with FileLock(path):
        r = subprocess.run([sys.executable, "-c", TRY, str(path)], capture_output=True, text=True, timeout=30)
        assert r.returncode == 3, r.stderr
        assert f"pid {os.getpid()}" in r.stdout
    r = subprocess.run([sys.executable, "-c", TRY, str(path)], capture_output=True, text=True, timeout=30)
    assert (r.returncode, r.stdout.strip()) == (0, "acquired")


def test_lock_released_when_holder_releases(holder: tuple[subprocess.Popen[str], Path]) -> None:
    proc, path = holder
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "released"
    with FileLock(path):
        pass


def test_lock_released_when_holder_is_killed(holder: tuple[subprocess.Popen[str], Path]) -> None:
    proc, path = holder
    with pytest.raises(LockedError):
        FileLock(path).acquire()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    with FileLock(path) as lock:
        assert lock.path.read_text() == str(os.getpid())
