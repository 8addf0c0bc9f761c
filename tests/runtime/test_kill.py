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


@pytest.mark.parametrize("trial", [*range(3), *(pytest.param(t, marks=pytest.mark.deep) for t in range(3, 10))])
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


# Every action leaves a detached grandchild behind (its own session, stdio closed) that
# would append to the step's file two seconds later: if one ever outlived its action or
# a killed runner, a second line for the same tick would appear, or it would still be alive.
GRAND = """
    goalkeeper: 1
    goal: {b: true}
    facts:
      a: {observe: {file: a}}
      b: {observe: {file: b}}
    actions:
      make_a: {pre: {a: false}, effects: {a: true}, run: "echo $GOALKEEPER_TICK >> make_a.runs; MARK; touch a"}
      make_b: {pre: {a: true, b: false}, effects: {b: true}, run: "echo $GOALKEEPER_TICK >> make_b.runs; MARK; touch b"}
"""


def _alive(marker: str) -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError):
                if marker in (d / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(d.name))
    return pids


@pytest.mark.parametrize("trial", [*range(2), *(pytest.param(t, marks=pytest.mark.deep) for t in range(2, 4))])
def test_kill_9_with_detached_grandchildren_leaves_no_orphan(trial: int, tmp_path: Path) -> None:
    rng = random.Random(7001 + trial)
    marker = f"gk-orphan-{os.getpid()}-{trial}"
    daemon = (f"setsid sh -c 'sleep 2; echo orphan >> orphans' {marker} </dev/null >/dev/null 2>&1 & "
              "sleep 0.05")
    world, home = tmp_path / "w", tmp_path / "home"
    spec = write_spec(world, GRAND.replace("MARK", daemon))
    if kill_at_line(_start, (str(spec), str(home)), home, rng.randint(1, 10)):
        # What the killed runner left is ended before anything re-runs: no orphan survives it.
        for _ in range(300):
            if not _alive(marker):
                break
            time.sleep(0.01)
        assert _alive(marker) == []
        finish(spec, home)
    check_invariants(world, home, ["make_a", "make_b"])
    assert _alive(marker) == []  # each action's grandchild ended with the action
    assert not (world / "orphans").exists()
