"""goalkeeper.run and goalkeeper.converge on a real Temporal dev server, through engine=."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

import goalkeeper
from goalkeeper.convergence import load_goal
from goalkeeper.errors import SpecError
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


def test_run_on_temporal_takes_variables_from_env_and_refuses_unset_ones_first(
    temporal_server: DevServer, workers: Workers, queue: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workers.spawn(temporal_server.address, queue, concurrency=2)
    engine = goalkeeper.make_engine("temporal", address=temporal_server.address, task_queue=queue)
    spec: dict[str, Any] = {
        "goalkeeper": 1,
        "goal": {"made": True},
        "facts": {"made": {"observe": {"command": ["test", "-e", "${GK_TARGET}"]}}},
        "actions": {"make": {"effects": {"made": True}, "run": ["touch", "${GK_TARGET}"]}},
    }
    world = tmp_path / "world"
    world.mkdir()
    runs = Path(os.environ["GOALKEEPER_HOME"]) / "runs"
    before = sorted(runs.iterdir()) if runs.exists() else []
    # Unset in the given env (even though the submitting shell has it): refused like a local
    # run, naming the variable, before any run or workflow exists.
    monkeypatch.setenv("GK_TARGET", str(world / "from-shell"))
    with pytest.raises(SpecError, match=r"GK_TARGET\} is not set"):
        goalkeeper.run(spec, workdir=world, engine=engine, env={"PATH": "/usr/bin:/bin"})
    monkeypatch.delenv("GK_TARGET")
    assert (sorted(runs.iterdir()) if runs.exists() else []) == before
    target = world / "from-env"
    done = goalkeeper.run(spec, workdir=world, engine=engine, env={"GK_TARGET": str(target)})
    assert done.status == "reached" and target.exists()
