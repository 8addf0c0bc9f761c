"""goalkeeper.run and goalkeeper.converge on a real Temporal dev server, through engine=."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import goalkeeper
from goalkeeper.convergence import load_goal
from goalkeeper.runtime import RunStore

from .conftest import DevServer, Workers

SPEC: dict[str, Any] = {
    "goalkeeper": 1,
    "goal": {"deployed": True},
    "facts": {"deployed": {"observe": {"command": ["test", "-e", "deployed"]}}},
    "actions": {"deploy": {"effects": {"deployed": True}, "run": ["touch", "deployed"],
                           "destructive": True, "confirm": True}},
}
FIX = "import pathlib; p = pathlib.Path('calc.py'); p.write_text(p.read_text().replace('a - b', 'a + b'))"


def test_run_and_converge_take_the_temporal_engine(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path
) -> None:
    workers.spawn(temporal_server.address, queue, concurrency=2)
    engine = goalkeeper.make_engine("temporal", address=temporal_server.address, task_queue=queue)
    assert isinstance(engine, goalkeeper.Engine) and engine.name == "temporal"

    world = tmp_path / "world"
    world.mkdir()
    # A worker has nobody to ask: a confirm: true action escalates unless yes=True, as documented.
    asked = goalkeeper.run(SPEC, workdir=world, engine=engine)
    assert asked.status == "escalated" and asked.escalation is not None
    assert asked.escalation["reason"] == "approval_required" and not (world / "deployed").exists()
    done = goalkeeper.run(SPEC, workdir=world, engine=engine, yes=True)
    assert done.status == "reached" and (world / "deployed").exists()
    assert RunStore(done.run_id).load().status == "reached"  # the shared store has it, as from the CLI

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    goal = goalkeeper.converge("add() adds", until=["python3 -c 'from calc import add; assert add(2, 3) == 5'"],
                               maker=[sys.executable, "-c", FIX], workspace=ws, max_iterations=3, engine=engine)
    assert goal.state == "converged" and len(goal.history) == 1
    assert load_goal(goal.goal_id).state == "converged"
    assert engine.fetch_goal(goal.goal_id).state == "converged"
