"""``goalkeeper goal`` end to end through real subprocesses: kill -9 + resume, lock, pause."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.convergence.helpers import EXAMPLE, copy_example, git

CLI = [sys.executable, "-m", "goalkeeper"]
Run = Callable[..., subprocess.CompletedProcess[str]]


def _env() -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}


def _new(run_cli: Run, ws: Path, *extra: str, maker: str = "fixer.py", sleep: str | None = None) -> str:
    argv = f"{sys.executable} {EXAMPLE / 'makers' / maker}" + (f" {sleep}" if sleep else "")
    res = run_cli("goal", "new", "Fix textstats", "--until", "pytest -q", "--until", "ruff check .",
                  "--maker", argv, "--workspace", str(ws), *extra)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


STEP_MAKER = """
import json, os, sys, time
late = os.path.abspath("late.txt")
if os.fork() == 0:  # a detached grandchild (own session, no stdio) that would edit the workspace later
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            os.close(fd)
        time.sleep(3)
        open(late, "a").write("an orphan edited the workspace\\n")
    os._exit(0)  # both the first child and the grandchild: neither goes on to the maker's work
time.sleep(float(sys.argv[1]))
os.makedirs("steps", exist_ok=True)
n = len(os.listdir("steps")) + 1
open(os.path.join("steps", f"{n}.txt"), "w").write(os.environ.get("GOALKEEPER_HINT", ""))
print(json.dumps({"costDollars": 0.01, "summary": f"step {n}"}))
"""
STEP_CHECK = "import os, sys; sys.exit(0 if os.path.isdir('steps') and len(os.listdir('steps')) >= 3 else 1)"


def _step_goal(run_cli: Run, tmp_path: Path, sleep: str) -> tuple[str, Path]:
    """A small git workspace whose maker adds one step file per iteration; 3 steps converge."""
    ws = tmp_path / "steps-ws"
    ws.mkdir()
    (ws / "README").write_text("steps\n")
    git(ws, "init", "-q")
    maker = tmp_path / "step_maker.py"
    maker.write_text(STEP_MAKER)
    res = run_cli("goal", "new", "Three steps", "--until", f"{sys.executable} -c \"{STEP_CHECK}\"",
                  "--maker", f"{sys.executable} {maker} {sleep}", "--workspace", str(ws))
    assert res.returncode == 0, res.stderr
    return res.stdout.strip(), ws


def _goal(run_cli: Run, gid: str) -> dict[str, Any]:
    res = run_cli("goal", "show", gid, "--json")
    assert res.returncode == 0, res.stderr
    data: dict[str, Any] = json.loads(res.stdout)
    return data


class Loop:
    """A ``goal run --json`` subprocess whose events we can wait for."""

    def __init__(self, gid: str, ws: Path, *args: str) -> None:
        self.proc = subprocess.Popen([*CLI, "goal", *args, gid, "--json"], cwd=ws, env=_env(),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.events: list[dict[str, Any]] = []

    def _lines(self) -> Iterator[dict[str, Any]]:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            ev = json.loads(line)
            self.events.append(ev)
            yield ev

    def wait_for(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for ev in self._lines():
            if pred(ev):
                return ev
        raise AssertionError(f"loop ended before the event; stderr: {self.proc.stderr.read() if self.proc.stderr else ''}")

    def finish(self) -> int:
        list(self._lines())
        return self.proc.wait(timeout=120)


def _makers_alive(marker: str) -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmd = (d / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if marker in cmd and "step_maker.py" in cmd:
                pids.append(int(d.name))
    return pids


def test_new_list_status_show(run_cli: Run, tmp_path: Path) -> None:
    ws = copy_example(tmp_path / "p")
    gid = _new(run_cli, ws, "--max-iterations", "4", "--max-dollars", "none")
    g = _goal(run_cli, gid)
    assert g["goalId"] == gid and g["budget"] == {"maxIterations": 4, "maxDuration": "2h", "maxDollars": None}
    assert [c["type"] for c in g["stoppingConditions"]] == ["test_pass", "lint_clean"]
    listed = json.loads(run_cli("goal", "list", "--active", "--json").stdout)
    assert [x["goalId"] for x in listed] == [gid]
    status = json.loads(run_cli("goal", "status", gid, "--json").stdout)
    assert status["state"] == "active" and status["iterations"] == 0
    human = run_cli("goal", "status", gid)
    assert gid in human.stdout and "active" in human.stdout


def test_hard_rules_are_clear_errors(run_cli: Run, tmp_path: Path) -> None:
    res = run_cli("goal", "new", "x", "--maker", "true")
    assert res.returncode == 2 and "--until" in res.stderr
    res = run_cli("goal", "new", "x", "--until", "true", "--max-iterations", "none",
                  "--max-duration", "none", "--max-dollars", "none")
    assert res.returncode == 1 and "at least one of maxIterations" in res.stderr
    res = run_cli("goal", "new", "x", "--until", "true", "--maker", "sh -c 'fix {hint}'")
    assert res.returncode == 1 and "GOALKEEPER_HINT" in res.stderr
    assert run_cli("goal", "show", "goal-zzzzzzzz").returncode == 1


# The second instant is a deep case: the first already proves resume loses no iteration.
@pytest.mark.parametrize("kill_after", ["iteration.started", pytest.param("maker.finished", marks=pytest.mark.deep)])
def test_kill_9_then_resume_loses_no_iteration(run_cli: Run, tmp_path: Path, kill_after: str) -> None:
    gid, ws = _step_goal(run_cli, tmp_path, "0.5")
    loop = Loop(gid, ws, "run")
    loop.wait_for(lambda e: e["event"] == kill_after and e.get("iteration") == 2)
    loop.proc.send_signal(signal.SIGKILL)
    assert loop.proc.wait(timeout=30) == -signal.SIGKILL
    for _ in range(300):  # the maker child dies with its parent (no orphan keeps editing)
        if not _makers_alive(str(tmp_path)):
            break
        time.sleep(0.1)
    assert not _makers_alive(str(tmp_path))
    crashed = _goal(run_cli, gid)
    assert [h["iteration"] for h in crashed["history"]] == [1, 2]
    assert crashed["history"][0]["phase"] == "done" and crashed["history"][1]["phase"] != "done"

    again = Loop(gid, ws, "run")
    assert again.finish() == 0
    done = _goal(run_cli, gid)
    assert done["state"] == "converged"
    assert [h["iteration"] for h in done["history"]] == [1, 2, 3]
    assert all(h["phase"] == "done" for h in done["history"])
    assert done["history"][0] == crashed["history"][0]  # the completed iteration is untouched
    starts = [e for e in again.events if e["event"] == "iteration.started"]
    if crashed["history"][1]["phase"] == "maker":  # killed mid-maker: iteration 2 is redone, not duplicated
        assert starts[0]["iteration"] == 2 and starts[0]["resumed"] and done["history"][1]["restarts"] == 1
    else:  # the maker had finished: only the judging is redone, the maker is not called again for 2
        assert [s["iteration"] for s in starts] == [3]
    assert sorted(p.name for p in (ws / "steps").iterdir()) == ["1.txt", "2.txt", "3.txt"]
    assert not _makers_alive(str(tmp_path)) and not (ws / "late.txt").exists()  # no grandchild outlived its maker
    assert run_cli("goal", "rollback", gid, "--to", "1").returncode == 0
    assert sorted(p.name for p in (ws / "steps").iterdir()) == ["1.txt"]


def test_lock_pause_resume_from_other_processes(run_cli: Run, tmp_path: Path) -> None:
    gid, ws = _step_goal(run_cli, tmp_path, "1.0")
    loop = Loop(gid, ws, "run")
    loop.wait_for(lambda e: e["event"] == "iteration.started")
    second = run_cli("goal", "run", gid)
    assert second.returncode == 1 and "already running" in second.stderr
    paused = run_cli("goal", "pause", gid)
    assert paused.returncode == 0 and "requested" in paused.stdout
    assert loop.finish() == 4  # paused: not done, not an error
    assert loop.events[-2]["event"] == "goal.paused"
    g = _goal(run_cli, gid)
    assert g["state"] == "paused" and len(g["history"]) < 3
    hint = next((h["nextHint"] for h in reversed(g["history"]) if h["phase"] == "done"), None)
    resumed = Loop(gid, ws, "resume")
    assert resumed.finish() == 0
    after = _goal(run_cli, gid)
    assert after["state"] == "converged"
    assert [h["iteration"] for h in after["history"]] == [1, 2, 3]
    new = after["history"][len(g["history"])] if g["history"][-1]["phase"] == "done" else None
    if new is not None and hint:
        assert new["hint"] == hint  # a fresh iteration continues with the last nextHint


def test_abandon(run_cli: Run, tmp_path: Path) -> None:
    gid = _new(run_cli, copy_example(tmp_path / "p"))
    assert run_cli("goal", "abandon", gid).returncode == 0
    assert _goal(run_cli, gid)["state"] == "failed"
    assert run_cli("goal", "run", gid).returncode == 1
