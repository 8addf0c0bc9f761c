"""The server restarts mid-run (persistent --db-filename): workers reconnect and the goals finish."""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.engines import temporal as engine

from .conftest import DevServer, Workers, wait_until
from .helpers import cfg_for, events, new_goal, wait_existing


@pytest.mark.deep
def test_goals_finish_across_a_dev_server_restart(workers: Workers, queue: str, tmp_path: Path) -> None:
    server = DevServer(tmp_path / "restart.db").start()
    try:
        ids = [new_goal(tmp_path, f"r{i}", env={"STEP_SLEEP": "0.5"}).goal_id for i in range(4)]
        workers.spawn(server.address, queue, concurrency=4)
        cfg = cfg_for(server.address, queue)
        for g in ids:
            engine.submit_goal(g, cfg)
        wait_until(lambda: any(e["event"] == "maker.finished" for g in ids for e in events(g)),
                   what="the first maker to finish")
        server.stop()
        server.start()  # same port, same database
        finished = [wait_existing(cfg, g) for g in ids]
    finally:
        server.stop()
    for g in finished:
        assert g.state == "converged"
        its = [h.iteration for h in g.history]
        assert its == list(range(1, len(its) + 1)) and all(h.phase == "done" for h in g.history)
        # A maker whose result was lost while the server was down is re-run as a restart of the
        # same iteration (as after a local crash): the files it made still count, never twice in history.
        assert len(its) + sum(h.restarts for h in g.history) >= 3
