"""`goalkeeper run` end to end through real subprocesses: exit codes, --json, kill -9, resume."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.runtime import RunOptions, start_run
from tests.runtime.helpers import (
    count_lines,
    gk,
    gk_popen,
    json_lines,
    kinds,
    only_run,
    pid_alive,
    read_events,
    read_state,
    run_dirs,
    started_actions,
    wait_for,
    write_spec,
)

# step3 blocks until a `release` file exists, so a test can catch it mid-action.
THREE_STEPS = """
    goalkeeper: 1
    goal: {s3: true}
    facts:
      s1: {observe: {file: s1}}
      s2: {observe: {file: s2}}
      s3: {observe: {file: s3}}
    actions:
      step1: {pre: {s1: false}, effects: {s1: true}, run: "echo x >> step1.count; touch s1"}
      step2: {pre: {s1: true, s2: false}, effects: {s2: true}, run: "echo x >> step2.count; touch s2"}
      step3:
        pre: {s2: true, s3: false}
        effects: {s3: true}
        run: "echo $$ > step3.pid; echo x >> step3.count; while [ ! -f release ]; do sleep 0.05; done; touch s3"
"""

# fast always fails and gets blocked; slow (the detour) blocks until `release` exists.
ROUTES = """
    goalkeeper: 1
    goal: {done: true}
    facts:
      done: {observe: {file: done}}
    actions:
      fast: {pre: {done: false}, effects: {done: true}, run: "echo x >> fast.count; exit 1"}
      slow:
        pre: {done: false}
        effects: {done: true}
        cost: 3
        run: "echo $$ > slow.pid; while [ ! -f release ]; do sleep 0.05; done; echo x >> slow.count; touch done"
    policy: {strikes: 2}
"""


@pytest.fixture
def world(tmp_path: Path) -> Path:
    w = tmp_path / "w"
    w.mkdir()
    return w


@pytest.fixture
def background(world: Path) -> Any:
    """Background runners; on teardown release blocked actions and reap what is left."""
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    (world / "release").write_text("")
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait(30)


def start_until(spec: Path, action: str, home: Path, world: Path,
                procs: list[subprocess.Popen[bytes]]) -> tuple[Path, subprocess.Popen[bytes]]:
    """Start `goalkeeper run SPEC --json`; return once ``action``'s tick_started is logged."""
    out = world.parent / f"bg-{len(procs)}.out"
    proc = gk_popen("run", spec, "--json", home=home, cwd=world, out=out)
    procs.append(proc)

    def started() -> Path | None:
        if proc.poll() is not None:
            raise AssertionError(f"runner exited early ({proc.returncode}): {out.read_text()}")
        dirs = run_dirs(home)
        if dirs and any(e["event"] == "tick.started" and e["action"] == action for e in read_events(dirs[0])):
            return dirs[0]
        return None

    return wait_for(started, f"tick_started for {action}"), proc


def kill_9(proc: subprocess.Popen[bytes], action_pid_file: Path) -> None:
    """SIGKILL the runner; the action it was running must not live on as an orphan."""
    pid = int(wait_for(lambda: action_pid_file.exists() and action_pid_file.read_text().strip(), "pid"))
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(30) == -signal.SIGKILL
    try:
        wait_for(lambda: not pid_alive(pid), "the action to die with its runner", limit=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)


# -- usage and refusals ---------------------------------------------------------------------


def test_no_spec_and_no_resume_is_a_usage_error(tmp_path: Path, goalkeeper_home: Path) -> None:
    r = gk("run", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 2
    assert "SPEC" in r.stderr and "--resume" in r.stderr


def test_max_ticks_must_be_positive(world: Path, goalkeeper_home: Path) -> None:
    spec = write_spec(world, THREE_STEPS)
    r = gk("run", spec, "--max-ticks", "0", home=goalkeeper_home, cwd=world)
    assert r.returncode == 2
    assert not run_dirs(goalkeeper_home)


def test_missing_spec_file_is_an_error(tmp_path: Path, goalkeeper_home: Path) -> None:
    r = gk("run", tmp_path / "nope.yaml", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 1 and "file not found" in r.stderr


def test_a_fact_without_observer_is_refused_naming_the_fact(world: Path, goalkeeper_home: Path) -> None:
    spec = write_spec(world, THREE_STEPS.replace("s2: {observe: {file: s2}}", "s2: {description: hidden}"))
    r = gk("run", spec, "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 1
    assert "facts.s2" in r.stderr and "observer" in r.stderr
    assert r.stdout == "" and not run_dirs(goalkeeper_home)
    assert count_lines(world / "step1.count") == 0


# -- outcomes and exit codes ------------------------------------------------------------------


def test_reached_exits_0_and_streams_json_events(world: Path, goalkeeper_home: Path) -> None:
    (world / "release").write_text("")
    r = gk("run", write_spec(world, THREE_STEPS), "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 0, r.stderr
    evs = json_lines(r.stdout)
    assert all({"ts", "runId", "seq", "event"} <= set(e) for e in evs)
    run_dir = only_run(goalkeeper_home)
    assert {e["runId"] for e in evs} == {run_dir.name}
    assert evs[0]["event"] == "run.started" and evs[-1]["event"] == "run.reached"
    assert evs == read_events(run_dir)  # the stream is the event log
    assert started_actions(evs) == ["step1", "step2", "step3"]


def test_human_output_without_json(world: Path, goalkeeper_home: Path) -> None:
    (world / "release").write_text("")
    r = gk("run", write_spec(world, THREE_STEPS), home=goalkeeper_home, cwd=world)
    assert r.returncode == 0
    assert "goal reached in 3 tick(s)" in r.stdout
    assert not r.stdout.lstrip().startswith("{")


def test_tick_cap_exits_3(world: Path, goalkeeper_home: Path) -> None:
    r = gk("run", write_spec(world, THREE_STEPS), "--json", "--max-ticks", "2",
           home=goalkeeper_home, cwd=world)
    assert r.returncode == 3
    last = json_lines(r.stdout)[-1]
    assert last["event"] == "run.escalated" and last["reason"] == "tick_cap"
    assert count_lines(world / "step3.count") == 0
    assert read_state(only_run(goalkeeper_home))["status"] == "escalated"


def test_failing_action_exits_3_after_exactly_strikes_attempts(world: Path, goalkeeper_home: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts: {done: {observe: {file: done}}}
        actions:
          work: {pre: {done: false}, effects: {done: true}, run: [gk-no-such-command-xyz]}
        policy: {strikes: 3}
    """)
    r = gk("run", spec, "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 3
    evs = json_lines(r.stdout)
    assert started_actions(evs) == ["work"] * 3
    assert [e["strikes"] for e in evs if e["event"] == "action.finished"] == [1, 2, 3]
    assert evs[-1]["event"] == "run.escalated" and evs[-1]["reason"] == "no_admissible_action"


def test_unreachable_exits_3_and_files_triage(world: Path, goalkeeper_home: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {healthy: true}
        facts:
          healthy: {observe: {file: healthy}}
          allowed: {observe: {file: allowed}}
        actions:
          heal: {pre: {allowed: true}, effects: {healthy: true}, run: "touch healthy"}
    """)
    r = gk("run", spec, home=goalkeeper_home, cwd=world)
    assert r.returncode == 3
    assert "escalated (unreachable)" in r.stdout
    assert "heal needs allowed == true (root" in r.stdout
    run_dir = only_run(goalkeeper_home)
    assert (run_dir / "report.json").exists() and (run_dir / "report.md").exists()
    (item,) = (goalkeeper_home / "triage").glob("tri-*.json")
    data = json.loads(item.read_text())
    assert data["source"] == "run" and data["source_id"] == run_dir.name
    assert item.with_suffix(".md").exists()


CONFIRM = """
    goalkeeper: 1
    goal: {gone: true}
    facts: {gone: {observe: {file: gone}}}
    actions:
      drop: {pre: {gone: false}, effects: {gone: true}, destructive: true, confirm: true,
             run: "echo x >> drop.count; touch gone"}
"""


def test_confirm_without_yes_escalates_approval_required(world: Path, goalkeeper_home: Path) -> None:
    r = gk("run", write_spec(world, CONFIRM), "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 3
    last = json_lines(r.stdout)[-1]
    assert last["event"] == "run.escalated" and last["reason"] == "approval_required"
    assert count_lines(world / "drop.count") == 0


def test_confirm_with_yes_runs(world: Path, goalkeeper_home: Path) -> None:
    r = gk("run", write_spec(world, CONFIRM), "--yes", home=goalkeeper_home, cwd=world)
    assert r.returncode == 0 and count_lines(world / "drop.count") == 1


# -- kill -9, resume, lock ---------------------------------------------------------------------


def test_kill_9_mid_action_then_resume_reaches_the_goal(world: Path, goalkeeper_home: Path,
                                                       background: list[Any]) -> None:
    spec = write_spec(world, THREE_STEPS)
    run_dir, proc = start_until(spec, "step3", goalkeeper_home, world, background)
    kill_9(proc, world / "step3.pid")

    state = read_state(run_dir)  # valid JSON after a SIGKILL mid-action
    assert state["status"] == "running" and state["tick"] == 3
    assert [(t["tick"], t["action"], t["outcome"]) for t in state["history"]] == [
        (1, "step1", "ok"), (2, "step2", "ok")]
    assert state["pending"]["action"] == "step3" and state["pending"]["tick"] == 3
    assert kinds(read_events(run_dir))[-1] == "tick.started"

    (world / "release").write_text("")
    r = gk("run", "--resume", run_dir.name, "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 0, r.stderr
    evs = json_lines(r.stdout)
    assert [e["event"] for e in evs[:3]] == ["run.resumed", "action.interrupted", "facts.observed"]
    assert evs[1]["tick"] == 3 and evs[1]["action"] == "step3"
    assert started_actions(evs) == ["step3"]  # completed actions are not repeated
    state = read_state(run_dir)
    assert state["status"] == "reached"
    assert [(t["tick"], t["action"], t["outcome"]) for t in state["history"]] == [
        (1, "step1", "ok"), (2, "step2", "ok"), (3, "step3", "interrupted"), (4, "step3", "ok")]
    assert [count_lines(world / f"step{i}.count") for i in (1, 2, 3)] == [1, 1, 2]


def test_kill_9_twice_the_second_time_during_the_resumed_action(world: Path, goalkeeper_home: Path,
                                                                background: list[Any]) -> None:
    spec = write_spec(world, THREE_STEPS)
    run_dir, proc = start_until(spec, "step3", goalkeeper_home, world, background)
    kill_9(proc, world / "step3.pid")
    (world / "step3.pid").unlink()
    out = world.parent / "resume.out"
    again = gk_popen("run", "--resume", run_dir.name, "--json", home=goalkeeper_home, cwd=world, out=out)
    background.append(again)
    wait_for(lambda: [e["tick"] for e in read_events(run_dir) if e["event"] == "tick.started"] == [1, 2, 3, 4],
             "the resumed run to start step3 again")
    kill_9(again, world / "step3.pid")
    (world / "release").write_text("")
    r = gk("run", "--resume", run_dir.name, "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 0, r.stderr
    state = read_state(run_dir)
    assert [(t["tick"], t["action"], t["outcome"]) for t in state["history"]] == [
        (1, "step1", "ok"), (2, "step2", "ok"), (3, "step3", "interrupted"), (4, "step3", "interrupted"),
        (5, "step3", "ok")]
    assert [count_lines(world / f"step{i}.count") for i in (1, 2, 3)] == [1, 1, 3]
    assert [e["seq"] for e in read_events(run_dir)] == list(range(1, state["seq"] + 1))


def test_sigint_mid_action_stops_the_action_too(world: Path, goalkeeper_home: Path,
                                                background: list[Any]) -> None:
    spec = write_spec(world, THREE_STEPS)
    run_dir, proc = start_until(spec, "step3", goalkeeper_home, world, background)
    pid = int(wait_for(lambda: (world / "step3.pid").exists() and (world / "step3.pid").read_text().strip(),
                       "pid"))
    proc.send_signal(signal.SIGINT)
    assert proc.wait(30) == 130
    assert read_state(run_dir)["pending"]["action"] == "step3"
    try:
        wait_for(lambda: not pid_alive(pid), "the interrupted action to stop", limit=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)


def test_second_runner_on_the_same_run_is_refused(world: Path, goalkeeper_home: Path,
                                                  background: list[Any]) -> None:
    spec = write_spec(world, THREE_STEPS)
    run_dir, proc = start_until(spec, "step3", goalkeeper_home, world, background)
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 1
    assert "already running" in r.stderr and run_dir.name in r.stderr
    assert proc.poll() is None  # the first runner is unaffected
    (world / "release").write_text("")
    assert proc.wait(60) == 0
    assert read_state(run_dir)["status"] == "reached"
    assert count_lines(world / "step3.count") == 1


def test_valid_spec_edit_between_kill_and_resume(world: Path, goalkeeper_home: Path,
                                                 background: list[Any]) -> None:
    spec = write_spec(world, ROUTES)
    run_dir, proc = start_until(spec, "slow", goalkeeper_home, world, background)
    kill_9(proc, world / "slow.pid")
    assert list(read_state(run_dir)["blocked"]) == ["fast"]
    spec.write_text(spec.read_text().replace("echo x >> fast.count; exit 1", "echo x >> fast.count; touch done"))
    r = gk("run", "--resume", run_dir.name, "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 0, r.stderr
    evs = json_lines(r.stdout)
    assert "spec.changed" in kinds(evs)
    assert started_actions(evs) == ["fast"]  # the blocked action may run again
    assert count_lines(world / "fast.count") == 3 and count_lines(world / "slow.count") == 0


class _Crash(Exception):
    pass


def _crash_at_tick_started(ev: dict[str, Any]) -> None:
    if ev["event"] == "tick.started":
        raise _Crash


def crashed_run(spec: Path, home: Path) -> Path:
    """A run that died right after its first tick_started (in-process, like a kill)."""
    with pytest.raises(_Crash):
        start_run(spec, RunOptions(root=home, reporter=_crash_at_tick_started))
    return only_run(home)


def test_invalid_spec_edit_before_resume_is_an_error_and_touches_nothing(
        world: Path, goalkeeper_home: Path) -> None:
    spec = write_spec(world, ROUTES)
    run_dir = crashed_run(spec, goalkeeper_home)
    before = (run_dir / "state.json").read_bytes(), (run_dir / "events.jsonl").read_bytes()
    spec.write_text(spec.read_text().replace("cost: 3", "cost: -3"))
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 1
    assert "invalid spec" in r.stderr and "cost" in r.stderr
    assert ((run_dir / "state.json").read_bytes(), (run_dir / "events.jsonl").read_bytes()) == before


@pytest.mark.parametrize("garbage", ["{\"run_id\": ", "[1, 2]", '{"run_id": "x"}'])
def test_corrupted_state_json_is_a_clear_error_and_left_untouched(
        world: Path, goalkeeper_home: Path, garbage: str) -> None:
    run_dir = crashed_run(write_spec(world, ROUTES), goalkeeper_home)
    (run_dir / "state.json").write_text(garbage)
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 1
    assert str(run_dir / "state.json") in r.stderr
    assert (run_dir / "state.json").read_text() == garbage


def test_binary_garbage_state_json_is_a_clear_error(world: Path, goalkeeper_home: Path) -> None:
    run_dir = crashed_run(write_spec(world, ROUTES), goalkeeper_home)
    (run_dir / "state.json").write_bytes(b"\xff\xfe\x00\x01 torn")
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 1 and str(run_dir / "state.json") in r.stderr


def test_resume_unknown_run_is_a_clear_error(tmp_path: Path, goalkeeper_home: Path) -> None:
    r = gk("run", "--resume", "run-does-not-exist", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 1
    assert "no run 'run-does-not-exist'" in r.stderr


@pytest.mark.parametrize("run_id", ["run-does-not-exist", "../../escaped"])
def test_resume_unknown_run_leaves_no_trace(tmp_path: Path, goalkeeper_home: Path, run_id: str) -> None:
    r = gk("run", "--resume", run_id, home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 1
    assert not (goalkeeper_home / "runs").exists()
    assert not (tmp_path / "escaped").exists()


def test_resume_a_reached_run_reports_it_with_exit_0(world: Path, goalkeeper_home: Path) -> None:
    (world / "release").write_text("")
    assert gk("run", write_spec(world, THREE_STEPS), home=goalkeeper_home, cwd=world).returncode == 0
    run_dir = only_run(goalkeeper_home)
    before = (run_dir / "events.jsonl").read_bytes()
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 0 and "already reached its goal (tick 3)" in r.stdout
    r = gk("run", "--resume", run_dir.name, "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 0 and json_lines(r.stdout) == [
        {"runId": run_dir.name, "status": "reached", "tick": 3, "escalation": None}]
    assert (run_dir / "events.jsonl").read_bytes() == before
    assert [count_lines(world / f"step{i}.count") for i in (1, 2, 3)] == [1, 1, 1]


def test_resume_an_escalated_run_reports_it_with_exit_3(world: Path, goalkeeper_home: Path) -> None:
    r = gk("run", write_spec(world, THREE_STEPS), "--max-ticks", "1", home=goalkeeper_home, cwd=world)
    assert r.returncode == 3
    run_dir = only_run(goalkeeper_home)
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 3 and "already escalated (tick_cap)" in r.stdout and "triage item tri-" in r.stdout
    j = gk("run", "--resume", run_dir.name, "--json", home=goalkeeper_home, cwd=world)
    (out,) = json_lines(j.stdout)
    assert j.returncode == 3 and out["escalation"]["triageId"].startswith("tri-")  # type: ignore[index]
    assert "triage_id" not in out["escalation"]  # type: ignore[operator]


def test_resume_sees_an_end_that_only_the_log_recorded(world: Path, goalkeeper_home: Path) -> None:
    # Killed after run.reached was appended, before the state saying so was saved.
    (world / "release").write_text("")
    assert gk("run", write_spec(world, THREE_STEPS), home=goalkeeper_home, cwd=world).returncode == 0
    run_dir = only_run(goalkeeper_home)
    state = read_state(run_dir)
    state.update(status="running", seq=state["seq"] - 1)
    (run_dir / "state.json").write_text(json.dumps(state))
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=world)
    assert r.returncode == 0 and "already reached" in r.stdout
    assert read_state(run_dir)["status"] == "reached"
    assert count_lines(world / "step3.count") == 1


def test_a_run_killed_before_its_first_state_is_never_started(tmp_path: Path, goalkeeper_home: Path) -> None:
    run_dir = goalkeeper_home / "runs" / "run-20260101T000000-dead"
    run_dir.mkdir(parents=True)
    (run_dir / "lock").write_text("12345")
    r = gk("runs", "list", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0 and "never started" in r.stdout
    r = gk("run", "--resume", run_dir.name, home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 1 and "never started" in r.stderr and "nothing ran" in r.stderr
    assert not run_dir.exists()  # nothing ran, nothing to keep


def test_resume_with_max_ticks_override(world: Path, goalkeeper_home: Path) -> None:
    run_dir = crashed_run(write_spec(world, THREE_STEPS), goalkeeper_home)
    (world / "release").write_text("")
    r = gk("run", "--resume", run_dir.name, "--max-ticks", "2", "--json", home=goalkeeper_home, cwd=world)
    assert r.returncode == 3
    assert json_lines(r.stdout)[-1]["reason"] == "tick_cap"
    assert read_state(run_dir)["max_ticks"] == 2
