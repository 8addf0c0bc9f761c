"""Every run scenario on Temporal (real dev server, real worker) gives the local driver's events.

All scenarios run at once as workflows on one worker; each has its own world and
store, so they cannot interfere. Nothing here waits on time: the heartbeat
timeout is long, so a loaded machine never turns a slow action into a lost one.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from temporalio.client import Client

from goalkeeper.engines.temporal import load_config
from goalkeeper.engines.temporal.client import run_sync, wait_for
from goalkeeper.engines.temporal.runs import start_run as start_temporal
from goalkeeper.runtime import RunOptions, RunState, RunStore, start_run
from tests.runtime.scenarios import SCENARIOS, essentials, world_files

from .conftest import DevServer, Workers


@pytest.fixture(scope="module")
def on_temporal(temporal_server: DevServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run every scenario on Temporal at once; {name: (state, events, world dir, home)}."""
    tmp = tmp_path_factory.mktemp("parity")
    queue = f"gk-parity-{os.getpid()}"
    workers = Workers(tmp)
    workers.spawn(temporal_server.address, queue, concurrency=4)
    cfg = load_config({"address": temporal_server.address, "task_queue": queue, "heartbeat_seconds": 60})
    try:
        started = {}
        for s in SCENARIOS:
            home = tmp / s.name / "home"
            spec = s.world(tmp / s.name / "world")
            started[s.name] = (start_temporal(spec, cfg, yes=s.yes, root=home, wait=False), home)

        async def wait_all(client: Client) -> list[Any]:
            return list(await asyncio.gather(*(wait_for(client.get_workflow_handle(st.run_id))
                                               for st, _ in started.values())))

        finals = run_sync(wait_all, cfg)
    finally:
        workers.stop_all()
    out = {}
    for (name, (st, home)), final in zip(started.items(), finals, strict=True):
        out[name] = (RunState.model_validate(final), RunStore(st.run_id, home).events(), tmp / name / "world", home)
    return out


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_temporal_runs_like_the_local_driver(scenario: Any, on_temporal: dict[str, Any], tmp_path: Path) -> None:
    state, events, world, home = on_temporal[scenario.name]
    spec = scenario.world(tmp_path / "local")
    local = start_run(spec, RunOptions(yes=scenario.yes, root=tmp_path / "home"))
    assert state.status == local.status == scenario.status
    assert essentials(events) == essentials(RunStore(local.run_id, tmp_path / "home").events())
    assert [(t.tick, t.action, t.outcome) for t in state.history] == [
        (t.tick, t.action, t.outcome) for t in local.history]
    assert world_files(world) == world_files(tmp_path / "local")
    # the shared store agrees with the workflow's result: the log, then the state, written in full
    on_disk = RunStore(state.run_id, home).load()
    assert on_disk.status == state.status and on_disk.seq == events[-1]["seq"] == state.seq


def test_a_belief_is_not_a_reached_goal_on_temporal(on_temporal: dict[str, Any]) -> None:
    state, events, world, _ = on_temporal["diagnostic-belief-wrong-at-the-start"]
    assert [t.action for t in state.history] == ["make_ok"] and (world / "ok").exists()
    fresh = [e["facts"] for e in events if e["event"] == "facts.observed" and e.get("fresh")]
    assert fresh == [{"ok": False}, {"ok": True}]


def test_a_temporal_escalation_can_become_a_goal(on_temporal: dict[str, Any]) -> None:
    state, _, world, home = on_temporal["unreachable-escalation"]
    assert state.escalation is not None
    item = json.loads((home / "triage" / f"{state.escalation['triage_id']}.json").read_text())
    assert item["context"]["workspace"] == str(world)
    assert item["context"]["until"] == [f"goalkeeper observe {world / 'spec.yaml'} --check"]
    # promoting runs goal new's preflight: the `goalkeeper` the condition names must be on PATH, as it is
    # for a user who installed goalkeeper (this venv's bin folder, here)
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    r = subprocess.run([sys.executable, "-m", "goalkeeper", "triage", "act", item["id"], "--goal", "--json"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                       env={**os.environ, "GOALKEEPER_HOME": str(home), "PATH": path})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["goalId"].startswith("goal-")
