"""`goal run ID... --parallel N` / `--all-active`: several goals at once, one stream, the worst outcome wins."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.convergence import Goal, MakerSpec, StoppingCondition
from goalkeeper.convergence.waves import (
    GoalOutcome,
    Wave,
    WaveView,
    check_wave,
    select_active,
    worst_exit,
)
from goalkeeper.errors import ConfigError

from ..integrations.helpers import cli_env, gk

DONE = f"{sys.executable} -c \"import pathlib, sys; sys.exit(0 if pathlib.Path('done.txt').exists() else 1)\""

# A 4-second maker that also waits (at most 4 s) until every maker of the wave has started, so the
# overlap below is decided by whether the goals really run at once, not by how loaded the machine is.
BARRIER_MAKER = """
import os, pathlib, sys, time
barrier, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
(barrier / str(os.getpid())).write_text("")
give_up = time.monotonic() + 4
while len(list(barrier.iterdir())) < n and time.monotonic() < give_up:
    time.sleep(0.05)
time.sleep(4)
pathlib.Path("done.txt").write_text("ok")
"""


def _ws(root: Path, name: str) -> Path:
    ws = root / name
    ws.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    return ws


def _goal_new(ws: Path, maker: str, *extra: str) -> str:
    res = gk("goal", "new", f"make {ws.name}", "--until", DONE, "--type", "custom_command", "--maker", maker,
             "--workspace", str(ws), "--sandbox", "none", *extra, cwd=ws)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def _events(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def _ts(ev: dict[str, Any]) -> float:
    return datetime.fromisoformat(ev["ts"].replace("Z", "+00:00")).timestamp()


@pytest.mark.deep
def test_three_goals_with_4_second_makers_run_at_once(tmp_path: Path) -> None:
    maker = tmp_path / "maker.py"
    maker.write_text(BARRIER_MAKER)
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    ids = [_goal_new(_ws(tmp_path, f"ws{i}"), f"{sys.executable} {maker} {barrier} 3") for i in range(3)]
    res = gk("goal", "run", *ids, "--parallel", "3", "--json", cwd=tmp_path, timeout=240)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr
    events = _events(res.stdout)
    assert all("goalId" in e for e in events if e["event"] != "wave.finished")
    spans = {}
    for gid in ids:
        mine = [e for e in events if e.get("goalId") == gid]
        start = next(e for e in mine if e["event"] == "iteration.started")
        end = next(e for e in mine if e["event"] == "maker.finished")
        spans[gid] = (_ts(start), _ts(end))
        assert any(e["event"] == "goal.converged" for e in mine)
    latest_start = max(s for s, _ in spans.values())
    earliest_end = min(e for _, e in spans.values())
    assert latest_start < earliest_end, spans  # all three makers were running at the same moment
    for s, e in spans.values():
        assert e - s >= 4.0  # each maker really took its 4 seconds
    final = events[-1]
    assert final["event"] == "wave.finished" and final["exitCode"] == 0
    assert sorted(o["goalId"] for o in final["outcomes"]) == sorted(ids)
    assert {o["outcome"] for o in final["outcomes"]} == {"converged"}


def test_the_exit_code_is_the_worst_outcome(tmp_path: Path) -> None:
    good = _goal_new(_ws(tmp_path, "good"), f"{sys.executable} -c \"open('done.txt', 'w').write('ok')\"")
    stuck = _goal_new(_ws(tmp_path, "stuck"), f"{sys.executable} -c pass", "--max-iterations", "1")
    res = gk("goal", "run", good, stuck, "--json", cwd=tmp_path, timeout=240)
    assert res.returncode == 3, res.stdout[-3000:] + res.stderr
    outcomes = {o["goalId"]: o for o in _events(res.stdout)[-1]["outcomes"]}
    assert outcomes[good]["outcome"] == "converged" and outcomes[good]["exitCode"] == 0
    assert outcomes[stuck]["outcome"] == "escalated" and "triage tri-" in outcomes[stuck]["detail"]
    # a goal whose workspace is gone could never run: the wave is refused before any goal starts
    gone = _ws(tmp_path, "gone")
    broken = _goal_new(gone, f"{sys.executable} -c pass")
    os.rename(gone, tmp_path / "moved")
    other = _goal_new(_ws(tmp_path, "other"), f"{sys.executable} -c \"open('done.txt', 'w').write('ok')\"")
    res = gk("goal", "run", broken, other, cwd=tmp_path, timeout=240)
    assert res.returncode == 1
    assert f"goal run refused ({broken})" in res.stderr and "workspace:" in res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    assert not (tmp_path / "other" / "done.txt").exists()  # nothing ran


def test_two_goals_on_one_workspace_are_refused_before_anything_runs(tmp_path: Path) -> None:
    ws = _ws(tmp_path, "shared")
    (ws / "sub").mkdir()
    a = _goal_new(ws, f"{sys.executable} -c pass")
    b = _goal_new(ws, f"{sys.executable} -c pass")
    nested = gk("goal", "new", "inner", "--until", DONE, "--maker", "true", "--workspace", str(ws / "sub"),
                cwd=ws).stdout.strip()
    for pair in ([a, b], [a, nested]):
        res = gk("goal", "run", *pair, "--parallel", "2", cwd=tmp_path)
        assert res.returncode == 1 and "same workspace" in res.stderr and "git worktree" in res.stderr
    twice = gk("goal", "run", a, a, cwd=tmp_path)
    assert twice.returncode == 1 and "named twice" in twice.stderr
    for gid in (a, b, nested):
        assert json.loads(gk("goal", "status", gid, "--json", cwd=ws).stdout)["iterations"] == 0


def test_all_active_runs_the_active_goals_and_leaves_host_goals_to_their_host(tmp_path: Path) -> None:
    assert gk("goal", "run", "--all-active", cwd=tmp_path).stdout.strip() == "no active goals to run"
    one = _goal_new(_ws(tmp_path, "one"), f"{sys.executable} -c \"open('done.txt', 'w').write('ok')\"")
    host_ws = _ws(tmp_path, "host")
    host = gk("goal", "new", "by hand", "--until", DONE, "--maker-type", "host", "--workspace", str(host_ws),
              cwd=host_ws).stdout.strip()
    res = gk("goal", "run", "--all-active", cwd=tmp_path, timeout=240)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{host}: skipped" in res.stderr and f"{one}  converged" in res.stdout
    refused = gk("goal", "run", host, one, cwd=tmp_path)
    assert refused.returncode == 1 and "made by the agent host" in refused.stderr
    usage = gk("goal", "run", one, "--all-active", cwd=tmp_path)
    assert usage.returncode == 2
    assert gk("goal", "run", cwd=tmp_path).returncode == 2


def test_killing_the_wave_kills_its_workers_and_their_makers(tmp_path: Path) -> None:
    maker = tmp_path / "slow.py"
    maker.write_text("import os, pathlib, sys, time\npathlib.Path(sys.argv[1]).write_text(str(os.getpid()))\n"
                     "time.sleep(120)\n")
    ids = [_goal_new(_ws(tmp_path, f"k{i}"), f"{sys.executable} {maker} {tmp_path / f'maker{i}.pid'}")
           for i in range(2)]
    proc = subprocess.Popen([sys.executable, "-m", "goalkeeper", "goal", "run", *ids, "--json"],
                            stdout=subprocess.PIPE, text=True, cwd=tmp_path, env=cli_env())
    assert proc.stdout is not None
    workers, started = [], set()
    deadline = time.monotonic() + 120
    while len(started) < 2 and time.monotonic() < deadline:
        ev = json.loads(proc.stdout.readline())
        if ev["event"] == "wave.goal_started":
            workers.append(ev["pid"])
        if ev["event"] == "iteration.started":
            started.add(ev["goalId"])
    while not all((tmp_path / f"maker{i}.pid").exists() for i in range(2)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_running(str(maker))) >= 2  # makers (and their guards), found by command line: a PID namespace hides their pids
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    while (_running(str(maker)) or any(_alive(p) for p in workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(str(maker)) and not any(_alive(p) for p in workers)


def test_ctrl_c_reaches_the_wave_which_stops_each_goal_with_its_state_saved(tmp_path: Path) -> None:
    maker = tmp_path / "slow.py"
    maker.write_text("import os, pathlib, sys, time\npathlib.Path(sys.argv[1]).write_text(str(os.getpid()))\n"
                     "time.sleep(120)\n")
    ids = [_goal_new(_ws(tmp_path, f"c{i}"), f"{sys.executable} {maker} {tmp_path / f'maker{i}.pid'}")
           for i in range(2)]
    proc = subprocess.Popen([sys.executable, "-m", "goalkeeper", "goal", "run", *ids, "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=cli_env())
    assert proc.stdout is not None and proc.stderr is not None
    workers, started = [], set()
    deadline = time.monotonic() + 120
    while len(started) < 2 and time.monotonic() < deadline:
        ev = json.loads(proc.stdout.readline())
        if ev["event"] == "wave.goal_started":
            workers.append(ev["pid"])
        if ev["event"] == "iteration.started":
            started.add(ev["goalId"])
    while not all((tmp_path / f"maker{i}.pid").exists() for i in range(2)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in workers:  # each worker leads its own process group, apart from the wave's
        assert os.getpgid(pid) == pid != os.getpgid(proc.pid)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends to the foreground group: the wave alone
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in out + err
    while _running(str(maker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(str(maker)) and not any(_alive(p) for p in workers)
    for gid in ids:  # readable, signed, resumable state
        status = gk("goal", "status", gid, "--json", cwd=tmp_path)
        assert status.returncode == 0, status.stderr
        assert json.loads(status.stdout)["state"] in ("active", "paused")


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def _running(needle: str) -> list[int]:
    """Live processes whose command line names ``needle``."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if needle in cmd and "python" in cmd and _alive(int(d.name)):
                out.append(int(d.name))
    return out


# --- the pure parts -----------------------------------------------------------------------

def _goal(gid: str, ws: Path, maker: str = "command", state: str = "active", created: str = "2026") -> Goal:
    return Goal(goal_id=gid, objective="o", stopping_conditions=[StoppingCondition(command="true")],
                maker=MakerSpec(type=maker), workspace=str(ws), state=state, created_at=created)  # type: ignore[arg-type]


@pytest.mark.parametrize("outcomes,code", [
    ([], 0), (["converged"], 0), (["converged", "paused"], 4), (["paused", "escalated", "converged"], 3),
    (["escalated", "error"], 1), (["failed", "converged"], 1), (["active"], 4),
])
def test_worst_outcome_order(outcomes: list[str], code: int) -> None:
    assert worst_exit(GoalOutcome(f"goal-{i:08d}", o) for i, o in enumerate(outcomes)) == code


def test_the_wave_starts_at_most_n_at_a_time_in_order() -> None:
    wave = Wave(["a", "b", "c", "d"], 2)
    assert wave.start_next() == ["a", "b"] and wave.start_next() == []
    wave.finished(GoalOutcome("b", "converged"))
    assert wave.start_next() == ["c"]
    for g in ("a", "c"):
        wave.finished(GoalOutcome(g, "escalated"))
    assert wave.start_next() == ["d"] and not wave.done
    wave.finished(GoalOutcome("d", "converged"))
    assert wave.done and [o.goal_id for o in wave.results()] == ["a", "b", "c", "d"]
    with pytest.raises(ConfigError):
        Wave(["a"], 0)


def test_check_wave_refuses_shared_and_nested_workspaces(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "c").mkdir()
    check_wave([_goal("goal-aaaaaaaa", tmp_path / "a"), _goal("goal-cccccccc", tmp_path / "c")])
    for other in (tmp_path / "a", tmp_path / "a" / "b", tmp_path):
        with pytest.raises(ConfigError, match="same workspace"):
            check_wave([_goal("goal-aaaaaaaa", tmp_path / "a"), _goal("goal-bbbbbbbb", other)])
    with pytest.raises(ConfigError, match="agent host"):
        check_wave([_goal("goal-aaaaaaaa", tmp_path / "a", maker="host")])


def test_select_active_keeps_order_and_says_what_it_left_out(tmp_path: Path) -> None:
    goals = [_goal("goal-bbbbbbbb", tmp_path, created="2026-02"), _goal("goal-aaaaaaaa", tmp_path, created="2026-01"),
             _goal("goal-cccccccc", tmp_path, maker="host"), _goal("goal-dddddddd", tmp_path, state="paused")]
    chosen, notes = select_active(goals)
    assert [g.goal_id for g in chosen] == ["goal-aaaaaaaa", "goal-bbbbbbbb"]
    assert len(notes) == 1 and "goal-cccccccc" in notes[0]


def test_the_view_folds_events_into_one_row_per_goal() -> None:
    view = WaveView()
    view.add("goal-aaaaaaaa", 5)
    view.feed({"event": "wave.goal_started", "goalId": "goal-aaaaaaaa"}, now=10.0)
    view.feed({"event": "iteration.started", "goalId": "goal-aaaaaaaa", "iteration": 2}, now=11.0)
    view.feed({"event": "iteration.started", "goalId": "goal-zzzzzzzz", "iteration": 9}, now=11.0)  # not ours
    assert view.table(now=13.0) == [("goal-aaaaaaaa", "maker running", "2/5", "3s", "iteration 2: maker running")]
    view.feed({"event": "wave.goal_finished", "goalId": "goal-aaaaaaaa", "outcome": "converged"}, now=14.0)
    assert view.table(now=14.0)[0][1] == "converged"


def test_on_a_terminal_the_wave_has_one_live_table_and_a_summary(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    ok = f"{sys.executable} -c \"open('done.txt', 'w').write('ok')\""
    ids = [_goal_new(_ws(tmp_path, f"t{i}"), ok) for i in range(2)]
    env = {**cli_env(), "COLUMNS": "160", "LINES": "40", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "goalkeeper", "goal", "run", *ids], cwd=str(tmp_path), env=env,
                          encoding="utf-8", timeout=180, dimensions=(40, 160))
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect("2 goal\\(s\\), 2 at a time")  # the live table's title
    child.expect("wave: exit 0")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    summary = seen.getvalue().split("wave: exit 0")[0].splitlines()[-4:]
    for gid in ids:
        assert any(gid in line and "converged" in line for line in summary), summary
