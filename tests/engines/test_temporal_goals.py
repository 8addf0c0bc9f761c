"""Goals on a real Temporal dev server, run by real worker processes; compared with the local engine."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from goalkeeper.convergence import Budget, load_goal, resume_goal, run_goal
from goalkeeper.store.triage import list_items

from .conftest import DevServer, Workers, wait_until
from .helpers import cfg_for, cli, events, json_lines, new_goal, run_all, shape, wait_existing


def _reference(tmp_path: Path, **kw: object) -> list[object]:
    """The same goal on the local engine: the shape every Temporal run must match."""
    g = new_goal(tmp_path, "local-reference", **kw)  # type: ignore[arg-type]
    return shape(run_goal(g.goal_id))


@pytest.mark.deep
def test_fifty_goals_across_two_workers_converge_like_local(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path
) -> None:
    expected = _reference(tmp_path)
    assert expected[0] == "converged" and len(expected[2]) == 3  # type: ignore[arg-type]
    for _ in range(2):
        workers.spawn(temporal_server.address, queue, concurrency=6)
    ids = [new_goal(tmp_path, f"g{i:02d}").goal_id for i in range(50)]
    finished = run_all(cfg_for(temporal_server.address, queue), ids)
    assert [g.goal_id for g in finished] == ids
    for g in finished:
        assert shape(g) == expected, g.goal_id
        assert shape(load_goal(g.goal_id)) == expected  # the goal file mirrors the workflow
    ran_on = {e["worker"] for g in ids for e in events(g) if "worker" in e}
    assert len(ran_on) == 2, ran_on  # both worker processes did work


@pytest.mark.deep
def test_kill_9_mid_maker_another_worker_finishes_without_losing_or_repeating(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path
) -> None:
    expected = _reference(tmp_path)
    side = tmp_path / "side"
    side.mkdir()
    g = new_goal(tmp_path, "crashy", env={"SIDE": str(side), "HOLD": "2"})
    first = workers.spawn(temporal_server.address, queue, concurrency=2)
    cfg = cfg_for(temporal_server.address, queue)
    import goalkeeper.engines.temporal as engine

    engine.submit_goal(g.goal_id, cfg)
    wait_until(lambda: (side / "held").exists(), what="iteration 2's maker to start")
    workers.spawn(temporal_server.address, queue, concurrency=2)
    first.send_signal(signal.SIGKILL)
    first.wait()
    done = wait_existing(cfg, g.goal_id)
    assert [h.iteration for h in done.history] == [1, 2, 3]
    assert [h.restarts for h in done.history] == [0, 1, 0]
    assert shape(done) == expected
    evs = events(g.goal_id)
    made = [e["iteration"] for e in evs if e["event"] == "maker.finished"]
    assert made == [1, 2, 3]  # no completed iteration lost or repeated
    starts = [(e["iteration"], e["resumed"]) for e in evs if e["event"] == "iteration.started"]
    assert starts == [(1, False), (2, False), (2, True), (3, False)]


@pytest.mark.deep  # the suite keeps test_temporal_runs and the API's Temporal test; this whole run goes deep
def test_pause_and_resume_signals_behave_as_locally(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path
) -> None:
    expected = _reference(tmp_path)
    side = tmp_path / "side"
    side.mkdir()
    g = new_goal(tmp_path, "pausable", env={"SIDE": str(side), "GATE": "1"})
    workers.spawn(temporal_server.address, queue, concurrency=2)
    flags = ("--engine", "temporal", "--address", temporal_server.address, "--task-queue", queue)
    started = cli("goal", "run", g.goal_id, "--detach", *flags)
    assert started.returncode == 0, started.stderr
    wait_until(lambda: (side / "started-1").exists(), what="the first maker call")
    paused = cli("goal", "pause", g.goal_id, *flags)
    assert paused.returncode == 0 and "pause requested" in paused.stdout, paused.stderr
    (side / "go").touch()  # the signal is in the workflow's history before the maker finishes

    def status() -> dict[str, object]:
        out = cli("goal", "status", g.goal_id, "--json", *flags)
        assert out.returncode == 0, out.stderr
        return json_lines(out.stdout)[0]

    wait_until(lambda: status()["state"] == "paused", what="the goal to pause")
    s = status()
    assert s["phase"] == "conditions" and s["iterations"] == 1  # stopped at the phase boundary, as locally
    assert load_goal(g.goal_id).state == "paused"
    assert not (side / "started-2").exists()
    resumed = cli("goal", "resume", g.goal_id, "--json", *flags)
    assert resumed.returncode == 0, resumed.stderr
    kinds = [e["event"] for e in json_lines(resumed.stdout)]
    assert "goal.converged" in kinds
    final = load_goal(g.goal_id)
    assert shape(final) == expected
    assert [e["event"] for e in events(g.goal_id)].count("goal.paused") == 1


@pytest.mark.deep
def test_budget_escalation_and_resume_with_a_raised_budget(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path
) -> None:
    tight = Budget(max_iterations=1, max_duration="30m")
    local = new_goal(tmp_path, "local-budget", budget=tight)
    first = run_goal(local.goal_id)
    resume_goal(local.goal_id, max_iterations=5)
    expected_first, expected_final = shape(first), shape(run_goal(local.goal_id))
    assert expected_first[:2] == ["escalated", "budget_exhausted"]

    workers.spawn(temporal_server.address, queue, concurrency=2)
    g = new_goal(tmp_path, "budget", budget=tight)
    flags = ("--engine", "temporal", "--address", temporal_server.address, "--task-queue", queue)
    run = cli("goal", "run", g.goal_id, *flags)
    assert run.returncode == 3, run.stdout + run.stderr
    assert "escalated" in run.stdout and "budget_exhausted" in run.stdout
    assert shape(load_goal(g.goal_id)) == expected_first
    esc = load_goal(g.goal_id).escalation
    assert esc is not None and esc.triage_id in {i.id for i in list_items()}
    refused = cli("goal", "resume", g.goal_id, *flags)
    assert refused.returncode == 1 and "raised budget" in refused.stderr
    again = cli("goal", "resume", g.goal_id, "--max-iterations", "5", *flags)
    assert again.returncode == 0, again.stdout + again.stderr
    assert shape(load_goal(g.goal_id)) == expected_final
    shown = cli("goal", "show", g.goal_id, "--json", *flags)
    assert shape(type(load_goal(g.goal_id)).model_validate(json_lines(shown.stdout)[0])) == expected_final
    listed = cli("goal", "list", "--json", *flags)
    assert listed.returncode == 0, listed.stderr
    rows = {r["goalId"]: r for r in json.loads(listed.stdout)}
    local_rows = json.loads(cli("goal", "list", "--json").stdout)
    assert set(rows[g.goal_id]) == set(local_rows[0])  # the same JSON shape as the local engine
    assert rows[g.goal_id]["state"] == "converged"
