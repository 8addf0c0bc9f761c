"""kill -9 at random instants, twice in a row, during resume: no completed step lost or run twice.

Each runner is a real process (forked, so no interpreter start-up per kill) running
the real driver with real commands and real fsyncs; it is SIGKILLed the moment its
event log reaches a randomly chosen line, which lands the kill anywhere: mid-action,
mid-observation, between an event and its state. The instants come from the log,
never from sleeps. Then the run is resumed to the end and its invariants checked.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import time
from pathlib import Path

import pytest

from goalkeeper.errors import NotFoundError
from goalkeeper.runtime import RunOptions, resume_run, start_run

from .helpers import count_lines, write_spec
from .test_crash import CHAIN, LINK, check_invariants, finish

_FORK = multiprocessing.get_context("fork")


def _start(spec: str, home: str) -> None:
    start_run(spec, RunOptions(root=Path(home)))


def _resume(run_id: str, home: str) -> None:
    with contextlib.suppress(NotFoundError):  # never started: the parent starts it anew
        resume_run(run_id, RunOptions(root=Path(home)))


def events_file(home: Path) -> Path | None:
    runs = home / "runs"
    dirs = list(runs.iterdir()) if runs.exists() else []
    return dirs[0] / "events.jsonl" if dirs else None


def kill_at_line(target: object, args: tuple[str, str], home: Path, line: int) -> bool:
    """Run ``target`` in a child and SIGKILL it once the log has ``line`` lines; False if it
    finished first. A hang is bounded by a generous limit, never part of what is asserted."""
    child = _FORK.Process(target=target, args=args)
    child.start()
    assert child.pid is not None
    deadline = time.monotonic() + 60
    while child.is_alive():
        log = events_file(home)
        if log is not None and count_lines(log) >= line:
            os.kill(child.pid, signal.SIGKILL)
            child.join(30)
            return True
        if time.monotonic() > deadline:
            child.kill()
            raise AssertionError("the runner hung")
        time.sleep(0.001)
    child.join(30)
    assert child.exitcode == 0, child.exitcode
    return False


@pytest.mark.parametrize("trial", range(10))
def test_kill_9_at_random_instants_then_resume(trial: int, tmp_path: Path) -> None:
    rng = random.Random(20240611 + trial)
    text, actions = (CHAIN, ["make_a", "make_b", "make_c"]) if trial % 2 == 0 else (LINK, ["finish", "link"])
    world, home = tmp_path / "w", tmp_path / "home"
    spec = write_spec(world, text)
    kills = 0
    killed = kill_at_line(_start, (str(spec), str(home)), home, rng.randint(1, 14 if trial % 2 == 0 else 20))
    kills += killed
    while killed and kills < 3 and rng.random() < 0.6:  # again, often while the resume is starting
        log = events_file(home)
        base = count_lines(log) if log else 0
        run_id = next((home / "runs").iterdir()).name
        killed = kill_at_line(_resume, (run_id, str(home)), home, base + rng.randint(1, 6))
        kills += killed
    print(f"trial {trial}: {kills} kill(s)")
    finish(spec, home)
    check_invariants(world, home, actions)
