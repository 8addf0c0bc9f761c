"""``goal status``, ``goal show -v``, ``goal logs`` and ``goal list`` on real goals run by real
subprocesses: a maker that needs two iterations, a check that prints why it fails, and a
second terminal watching a goal another process is running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.cli._live import goal_status, human_duration, status_line
from goalkeeper.convergence import load_goal
from tests.convergence.helpers import git

Run = Callable[..., subprocess.CompletedProcess[str]]
CLI = [sys.executable, "-m", "goalkeeper"]

# iteration 1 writes half.txt, iteration 2 done.txt; waits for GATE first when the env var names one
MAKER = """
import json, os, sys, time
gate = os.environ.get("GATE_FILE")
while gate and not os.path.exists(gate):
    time.sleep(0.05)
name = "done.txt" if os.path.exists("half.txt") else "half.txt"
open(name, "w").write("x\\n")
print("maker says hello from", name)
print(json.dumps({"costDollars": 0.25, "summary": "wrote " + name}))
"""
CHECK = """
import os, sys
ok = os.path.exists("done.txt")
print("CHECK-SAYS: done.txt is missing" if not ok else "CHECK-SAYS: fine")
print("end of the check's output")
sys.exit(0 if ok else 1)
"""


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "sub" / "deeper").mkdir(parents=True)
    (ws / "README").write_text("two steps\n")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "start")
    return ws


def _new_goal(run_cli: Run, tmp_path: Path, *extra: str) -> tuple[str, Path]:
    ws = _workspace(tmp_path)
    maker = tmp_path / "maker.py"
    maker.write_text(MAKER)
    check = tmp_path / "check.py"
    check.write_text(CHECK)
    res = run_cli("goal", "new", "Two steps", "--until", f"{sys.executable} {check}",
                  "--maker", f"{sys.executable} {maker}", "--workspace", str(ws), "--max-iterations", "5",
                  "--max-dollars", "10", *extra)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip(), ws


def test_status_show_logs_of_a_converged_goal(run_cli: Run, tmp_path: Path) -> None:
    gid, ws = _new_goal(run_cli, tmp_path)
    res = run_cli("goal", "run", gid)
    assert res.returncode == 0, res.stdout + res.stderr

    s = json.loads(run_cli("goal", "status", gid, "--json").stdout)
    assert s["goalId"] == gid and s["state"] == "converged" and s["running"] is False
    assert (s["iteration"], s["maxIterations"]) == (2, 5)
    assert s["spentDollars"] == 0.5 and s["leftDollars"] == 9.5 and s["maxDollars"] == 10
    assert (s["phase"], s["activity"]) == ("done", "idle") and s["elapsedSeconds"] >= 0
    human = run_cli("goal", "status", gid)
    assert "iteration 2/5" in human.stdout and "$0.50 spent, $9.50 left of $10.00" in human.stdout

    # -v: the failing check's own output of iteration 1 is shown, plain `show` keeps it out
    plain = run_cli("goal", "show", gid).stdout
    verbose = run_cli("goal", "show", gid, "-v").stdout
    assert "CHECK-SAYS: done.txt is missing" not in plain
    assert "CHECK-SAYS: done.txt is missing" in verbose and f"goalkeeper goal logs {gid}" in verbose

    logs = run_cli("goal", "logs", gid)
    assert logs.returncode == 0, logs.stderr
    assert "maker says hello from half.txt" in logs.stdout and "maker says hello from done.txt" in logs.stdout
    assert "CHECK-SAYS: done.txt is missing" in logs.stdout and "converged" in logs.stdout
    one = run_cli("goal", "logs", gid, "--iteration", "2").stdout
    assert "done.txt" in one and "from half.txt" not in one

    lines = [json.loads(x) for x in run_cli("goal", "logs", gid, "--json").stdout.splitlines()]
    assert all("event" in x and x["goalId"] == gid for x in lines)
    outputs = [x for x in lines if x["event"] == "output.logged"]
    assert {(x["iteration"], x["phase"]) for x in outputs} >= {(1, "maker"), (1, "checks"), (2, "maker")}
    # a finished goal: -f prints it all and ends at once with the goal's exit code
    assert run_cli("goal", "logs", gid, "-f").returncode == 0


def test_state_is_found_from_a_subdirectory_without_goalkeeper_home(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "GOALKEEPER_HOME"}
    env.update(NO_COLOR="1", COLUMNS="200")

    def gk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)

    made = gk("goal", "new", "From the top", "--until", "true", "--maker", "true", cwd=ws)
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    listed = gk("goal", "list", "--json", cwd=ws / "sub" / "deeper")
    assert listed.returncode == 0, listed.stderr
    assert [g["goalId"] for g in json.loads(listed.stdout)] == [gid]
    assert gk("goal", "status", gid, cwd=ws / "sub").returncode == 0


def test_a_second_terminal_watches_a_running_goal(run_cli: Run, tmp_path: Path) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    gate = tmp_path / "gate"
    env = {**os.environ, "NO_COLOR": "1", "GATE_FILE": str(gate)}
    proc = subprocess.Popen([*CLI, "goal", "run", gid], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    follower = subprocess.Popen([*CLI, "goal", "logs", gid, "-f"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        s: dict[str, Any] = {}
        while time.monotonic() < deadline:  # bounded wait for the loop to reach its first maker run
            s = json.loads(run_cli("goal", "status", gid, "--json").stdout)
            if s["running"] and s["activity"] == "maker":
                break
        assert s["running"] and s["pid"] == proc.pid and s["activity"] == s["phase"] == "maker", s
        assert (s["iteration"], s["maxIterations"]) == (1, 5) and s["phaseSeconds"] is not None
        human = run_cli("goal", "status", gid).stdout
        assert f"running (pid {proc.pid}): iteration 1/5, maker" in human
        gate.write_text("go")
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
        out, err = follower.communicate(timeout=60)
        assert follower.returncode == 0, err
        assert "maker says hello from done.txt" in out and "converged" in out
    finally:
        for p in (proc, follower):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_status_line_and_status_are_pure(tmp_path: Path, run_cli: Run) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    goal = load_goal(gid)
    s = goal_status(goal, pid=None, now=0.0)
    assert (s["running"], s["phase"], s["activity"], s["iteration"]) == (False, None, "idle", 0)
    line = status_line(s, width=200)
    assert line.startswith("iteration 0/5 · idle · ") and "$0.00 spent, $10.00 left of $10.00" in line
    assert "2h00m" in line  # the default 2h duration budget
    assert [human_duration(x) for x in (None, 5, 65, 3700)] == ["∞", "5s", "1m05s", "1h01m"]
    running = goal_status(goal, pid=os.getpid())
    assert running["running"] and running["activity"] == "baseline"
    remote = goal_status(goal, pid=None, known=False)  # a remote engine runs it: who runs it is unknown here
    assert remote["running"] is None and remote["activity"] == "idle"


def test_malformed_ids_and_options_are_clear_errors(run_cli: Run) -> None:
    for args in (("goal", "logs", "goal-nothere"), ("goal", "status", "goal-nothere"),
                 ("goal", "show", "goal-nothere", "-v"), ("goal", "logs", "../../etc/passwd")):
        res = run_cli(*args)
        assert res.returncode == 1, (args, res.stdout, res.stderr)
        assert "Traceback" not in res.stderr and res.stderr.strip()
    bad = run_cli("goal", "logs", "goal-nothere", "--iteration", "0")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_goal_run_live_line_on_a_terminal(run_cli: Run, tmp_path: Path) -> None:
    """On a real terminal (a pty) the spinner line shows iteration k/N, the phase, active time and dollars."""
    import pexpect  # type: ignore[import-untyped]

    gid, _ = _new_goal(run_cli, tmp_path)
    gate = tmp_path / "gate"
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "200", "GATE_FILE": str(gate)}
    child = pexpect.spawn(sys.executable, ["-m", "goalkeeper", "goal", "run", gid], env=env, encoding="utf-8",
                          timeout=60, dimensions=(40, 200))
    try:
        child.expect(r"iteration 1/5 · maker \d+s · \d+s of 2h00m active · \$0\.00 spent, \$10\.00 left of \$10\.00")
        gate.write_text("go")
        child.expect(r"iteration 2/5 [^\n]* · hint: ")  # the last hint, for the maker of iteration 2
        child.expect("converged")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0



def test_ids_are_never_cut_in_a_pipe(run_cli: Run, tmp_path: Path) -> None:
    """A narrow COLUMNS must not wrap or cut an id in a table when the output goes to a pipe."""
    from tests.cli.test_exit_codes import SPEC

    (tmp_path / "spec.yaml").write_text(SPEC)
    ran = run_cli("run", "spec.yaml", "--json")
    assert ran.returncode == 0, ran.stderr
    run_id = json.loads(ran.stdout.splitlines()[0])["runId"]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "30"}
    out = subprocess.run([*CLI, "runs", "list"], env=env, capture_output=True, text=True, timeout=60,
                         cwd=tmp_path).stdout
    assert run_id in out and any(line.count("reached") == 1 and run_id in line for line in out.splitlines())


def test_a_follower_ends_with_4_when_the_goal_it_follows_is_paused(run_cli: Run, tmp_path: Path) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    gate = tmp_path / "gate"
    env = {**os.environ, "NO_COLOR": "1", "GATE_FILE": str(gate)}
    proc = subprocess.Popen([*CLI, "goal", "run", gid], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    follower = subprocess.Popen([*CLI, "goal", "logs", gid, "-f", "--json"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not json.loads(
                run_cli("goal", "status", gid, "--json").stdout)["running"]:
            pass
        assert run_cli("goal", "pause", gid).returncode == 0
        gate.write_text("go")
        assert proc.wait(timeout=120) == 4  # paused: not done, not an error
        out, err = follower.communicate(timeout=60)
        assert follower.returncode == 4, err
        events = [json.loads(x)["event"] for x in out.splitlines()]
        assert "goal.paused" in events and "goal.converged" not in events
    finally:
        for p in (proc, follower):
            if p.poll() is None:
                p.kill()
                p.wait()


# iteration 1 slips a suppression into the code (rejected, reverted); iteration 2 does the work
CHEAT_THEN_FIX = """
import os
if not os.path.exists("tried"):
    open("tried", "w").close()
    open("mod.py", "w").write("import os\\nvalue = 1  # noqa: F401\\n")
    print("added a suppression")
else:
    open("done.txt", "w").write("x\\n")
    print("did the work")
"""


@pytest.mark.deep  # a whole run: test_status_show_logs_of_a_converged_goal keeps the views in the suite
def test_show_verbose_lists_each_rejection_finding_with_its_place(run_cli: Run, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    maker = tmp_path / "maker.py"
    # the marker lives outside the workspace: a rejected iteration's files are reverted
    maker.write_text(CHEAT_THEN_FIX.replace('"tried"', repr(str(tmp_path / "tried"))))
    check = tmp_path / "check.py"
    check.write_text(CHECK)
    gid = run_cli("goal", "new", "Two steps", "--until", f"{sys.executable} {check}",
                  "--maker", f"{sys.executable} {maker}", "--workspace", str(ws), "--max-iterations", "4",
                  "--sandbox", "none").stdout.strip()
    res = run_cli("goal", "run", gid)
    assert res.returncode == 0, res.stdout + res.stderr
    assert not (ws / "mod.py").exists()  # the rejected change was reverted

    plain = run_cli("goal", "show", gid).stdout
    verbose = run_cli("goal", "show", gid, "-v").stdout
    assert "#1 rejected" in plain and "#1 rejected" in verbose
    assert "mod.py:2:" in verbose and "noqa" in verbose  # the finding, at its file and line
    data = json.loads(run_cli("goal", "show", gid, "--json").stdout)
    (first,) = [h for h in data["history"] if h["iteration"] == 1]
    assert any(f["path"] == "mod.py" and f["line"] == 2 for f in first["findings"])
