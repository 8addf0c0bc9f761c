"""``goalkeeper run SPEC --engine temporal`` on the deploy-coordinator example, end to end."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .conftest import DevServer, Workers
from .helpers import cli, json_lines

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "deploy-coordinator"


def _demo() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deploy_demo", EXAMPLE / "demo.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, str]]:
    w = _demo().setup_world(tmp_path / "healing", pin_allowed=True)
    server = subprocess.Popen([sys.executable, str(EXAMPLE / "scripts" / "world.py"), "serve"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "DEMO_WORLD": str(w)})
    assert server.stdout is not None
    port = int(server.stdout.readline())
    yield {"DEMO_WORLD": str(w), "DEMO_URL": f"http://127.0.0.1:{port}"}
    server.terminate()
    server.wait()


def test_healing_run_replans_and_reaches_like_locally(
    temporal_server: DevServer, workers: Workers, queue: str, world: dict[str, str], goalkeeper_home: Path
) -> None:
    workers.spawn(temporal_server.address, queue, concurrency=2, env=world)
    out = cli("run", str(EXAMPLE / "spec.yaml"), "--json", "--engine", "temporal",
              "--address", temporal_server.address, "--task-queue", queue, env=world)
    assert out.returncode == 0, out.stdout + out.stderr
    evs = json_lines(out.stdout)
    assert [e["action"] for e in evs if e["event"] == "tick.started"] == [
        "run_tests", "build_image", "deploy",
        "verify_health", "verify_health", "verify_health",
        "pin_env", "deploy", "verify_health",
    ]
    (replan,) = [e for e in evs if e["event"] == "run.replanned"]
    assert replan["failed"] == ["verify_health"]
    assert {"fact": "env_pinned", "believed": True, "observed": False} in replan["corrections"]
    (run_dir,) = (goalkeeper_home / "runs").iterdir()
    state = json.loads((run_dir / "state.json").read_text())
    assert state["status"] == "reached" and state["tick"] == 9
    assert (Path(world["DEMO_WORLD"]) / "env_pin").read_text().strip() == "production"


HELD = """
goalkeeper: 1
goal: {s2: true}
facts:
  s1: {observe: {file: s1}}
  s2: {observe: {file: s2}}
actions:
  step1: {pre: {s1: false}, effects: {s1: true}, run: "echo $GOALKEEPER_TICK >> step1.runs; touch s1"}
  step2:
    pre: {s1: true, s2: false}
    effects: {s2: true}
    run: "echo $GOALKEEPER_TICK >> step2.runs; while [ ! -f release ]; do sleep 0.05; done; touch s2"
"""


@pytest.mark.deep
def test_a_worker_killed_mid_action_leaves_an_interrupted_tick_and_the_run_goes_on(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path, goalkeeper_home: Path
) -> None:
    from goalkeeper.engines.temporal import load_config
    from goalkeeper.engines.temporal.client import run_sync, wait_for
    from goalkeeper.engines.temporal.runs import start_run
    from goalkeeper.runtime import RunState

    from .conftest import wait_until

    world = tmp_path / "held"
    world.mkdir()
    (world / "spec.yaml").write_text(HELD)
    first = workers.spawn(temporal_server.address, queue, concurrency=2)
    # The dead worker's action is noticed when its heartbeat stops; 5 s keeps a loaded box's live
    # heartbeats well inside it (an extra cut-off would only add an interrupted tick, never fail).
    cfg = load_config({"address": temporal_server.address, "task_queue": queue, "heartbeat_seconds": 5})
    st = start_run(world / "spec.yaml", cfg, root=goalkeeper_home, wait=False)
    runs = world / "step2.runs"
    wait_until(lambda: runs.exists(), what="step2 to start on the first worker")
    first.kill()
    first.wait(30)
    workers.spawn(temporal_server.address, queue, concurrency=2)
    wait_until(lambda: len(runs.read_text().split()) >= 2, timeout=120, what="step2 to start again elsewhere")
    (world / "release").write_text("")

    async def result(client: Any) -> Any:
        return await wait_for(client.get_workflow_handle(st.run_id))

    final = RunState.model_validate(run_sync(result, cfg))
    outcomes = [(t.action, t.outcome) for t in final.history]
    assert final.status == "reached" and outcomes[0] == ("step1", "ok") and outcomes[-1] == ("step2", "ok")
    assert set(outcomes[1:-1]) == {("step2", "interrupted")}  # cut off, re-observed, run again: never lost
    assert (world / "step1.runs").read_text().split() == ["1"]  # the completed step is not run again
    events = json.loads("[" + ",".join((goalkeeper_home / "runs" / st.run_id / "events.jsonl").read_text()
                                       .splitlines()) + "]")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
