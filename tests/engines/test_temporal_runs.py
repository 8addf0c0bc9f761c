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
