"""A maker whose result arrives after its heartbeat timeout is not run again, and its cost is kept.

The worker is frozen (SIGSTOP) while its maker runs, so nothing heartbeats; the
maker finishes meanwhile. Only once the server has recorded the activity's
heartbeat timeout is the worker thawed: its maker activity then completes too
late for Temporal, and the workflow must find the recorded result.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from temporalio.client import Client

from goalkeeper.convergence import Budget, MakerSpec, StoppingCondition, create_goal
from goalkeeper.engines.temporal.client import run_sync
from goalkeeper.engines.temporal.goal_activities import maker_record_path
from goalkeeper.store.home import home

from .conftest import DevServer, Workers, wait_until
from .helpers import cfg_for, events, wait_existing

# One run is one line in $SIDE/runs; the maker waits for $SIDE/go, then fixes the
# workspace, says it is done (outside the workspace) and reports its cost.
MAKER = r"""
echo run >> "$SIDE/runs"
while [ ! -e "$SIDE/go" ]; do sleep 0.05; done
echo fixed > fixed
touch "$SIDE/finished"
echo '{"summary": "fixed it", "costDollars": 0.25}'
"""


def _timed_out(cfg: object, goal_id: str) -> bool:
    async def go(client: Client) -> bool:
        async for ev in client.get_workflow_handle(goal_id).fetch_history_events():
            if ev.HasField("activity_task_timed_out_event_attributes"):
                return True
        return False

    return bool(run_sync(go, cfg))  # type: ignore[arg-type]


@pytest.mark.deep
def test_a_maker_finishing_after_its_heartbeat_timeout_runs_once_and_its_cost_counts(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path
) -> None:
    side, ws = tmp_path / "side", tmp_path / "ws"
    side.mkdir()
    ws.mkdir()
    goal = create_goal(
        "make the fix", [StoppingCondition(command=["test", "-e", "fixed"])],
        maker=MakerSpec(argv=["sh", "-c", MAKER], env={"SIDE": str(side)}, sandbox="none", timeout="10m"),
        workspace=ws, budget=Budget(max_iterations=3, max_duration="30m"),
    )
    worker = workers.spawn(temporal_server.address, queue, concurrency=2)
    cfg = cfg_for(temporal_server.address, queue)  # heartbeat timeout 2 s
    import goalkeeper.engines.temporal as engine

    engine.submit_goal(goal.goal_id, cfg)
    wait_until(lambda: (side / "runs").exists(), what="the maker to start")
    worker.send_signal(signal.SIGSTOP)
    try:
        (side / "go").touch()
        wait_until(lambda: (side / "finished").exists(), what="the maker to finish under a frozen worker")
        wait_until(lambda: _timed_out(cfg, goal.goal_id), timeout=120, what="the server to time the maker out")
    finally:
        worker.send_signal(signal.SIGCONT)
    done = wait_existing(cfg, goal.goal_id)

    assert done.state == "converged", done.escalation
    assert (side / "runs").read_text().splitlines() == ["run"]  # the maker ran once
    first = done.history[0]
    assert (first.iteration, first.restarts) == (1, 0)
    assert first.maker_cost_dollars == 0.25 and first.cost_known  # its cost was not lost
    assert done.spent_dollars() == 0.25
    evs = events(goal.goal_id)
    kinds = [e["event"] for e in evs]
    assert kinds.count("maker.finished") == 1 and "maker.recovered" in kinds
    assert [e["resumed"] for e in evs if e["event"] == "iteration.started"] == [False]
    assert sum(e["costDollars"] for e in evs if e["event"] == "maker.finished") == first.maker_cost_dollars
    # The record that carried the late result is dropped once its iteration is settled.
    assert not maker_record_path(home().resolve(), goal.goal_id, 1, 0).exists()
