"""The saved phase logs (``<home>/goals/<id>.logs/``) read back by ``goal logs``, ``goal show -v`` and the MCP
``goal_logs`` tool: a planted link is never followed out of the state home, a FIFO never blocks the reader,
and a file grown far past :data:`LOG_BYTES` is read in bounded memory. Writes already refuse all three."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from goalkeeper.convergence.logs import log_dir

from ..fuzz.helpers import invoke

SECRET = "gk-hostile-secret-7f3a"


@pytest.fixture
def goal(goalkeeper_home: Path, tmp_path: Path) -> str:
    """A host goal with one checked iteration, so its logs folder holds real logs."""
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", "false", cwd=ws)
    assert o.code == 0, o.text
    gid = o.out.strip()
    invoke(goalkeeper_home, "goal", "check", gid, cwd=ws)
    assert any(log_dir(gid).glob("iteration-0001.checks-1.log"))
    return gid


def _cli(home: Path, *args: str, limit_mb: int | None = None) -> subprocess.CompletedProcess[str]:
    """The real CLI in a child (so a hang is a timeout and a memory blow-up is capped, not the test's)."""
    pre = "import resource; resource.setrlimit(resource.RLIMIT_AS, ({0}, {0})); ".format(limit_mb << 20) if limit_mb else ""
    code = pre + "import sys; from goalkeeper.cli import cli; sys.argv[0] = 'goalkeeper'; cli()"
    env = {**os.environ, "GOALKEEPER_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          timeout=10, stdin=subprocess.DEVNULL)


def test_a_log_linked_out_of_the_home_is_not_read(goalkeeper_home: Path, tmp_path: Path, goal: str) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{SECRET}\n")
    log = log_dir(goal) / "iteration-0001.checks-1.log"
    log.unlink()
    log.symlink_to(outside)
    r = _cli(goalkeeper_home, "goal", "logs", goal)
    assert SECRET not in r.stdout + r.stderr, "goal logs printed a file outside GOALKEEPER_HOME through a link"
    assert "Traceback" not in r.stderr


def test_a_linked_logs_folder_is_not_read(goalkeeper_home: Path, tmp_path: Path, goal: str) -> None:
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / "iteration-0001.maker.log").write_text(f"{SECRET}\n")
    d = log_dir(goal)
    for p in d.iterdir():
        p.unlink()
    d.rmdir()
    d.symlink_to(planted)
    r = _cli(goalkeeper_home, "goal", "logs", goal)
    assert SECRET not in r.stdout + r.stderr, "goal logs read a logs folder linked out of GOALKEEPER_HOME"


def test_a_fifo_in_place_of_a_log_never_blocks(goalkeeper_home: Path, goal: str) -> None:
    log = log_dir(goal) / "iteration-0001.checks-1.log"
    log.unlink()
    os.mkfifo(log)
    try:
        r = _cli(goalkeeper_home, "goal", "logs", goal)
    except subprocess.TimeoutExpired:
        pytest.fail("goal logs blocked opening a FIFO in the logs folder")
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr


def test_a_huge_log_is_read_in_bounded_memory(goalkeeper_home: Path, goal: str) -> None:
    # read_text() reads the whole file before keeping its last 128 KB; a sparse 2 GB file costs nothing
    # on disk and, read whole, more memory than the child is allowed
    log = log_dir(goal) / "iteration-0001.checks-1.log"
    with open(log, "r+b") as f:
        f.truncate(2 << 30)
        f.seek(-len(SECRET) - 1, os.SEEK_END)
        f.write(SECRET.encode() + b"\n")
    r = _cli(goalkeeper_home, "goal", "logs", goal, limit_mb=768)
    assert r.returncode == 0, r.stderr[-400:]
    assert "internal error" not in r.stderr and "MemoryError" not in r.stderr
    assert SECRET in r.stdout  # the tail is what is kept
