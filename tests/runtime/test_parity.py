"""The local driver and the standalone runner give the same events for the same scenario.

(The Temporal engine joins in ``tests/engines/test_run_parity.py``, on a real dev server.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.runtime import RunOptions, RunStore, start_run

from .scenarios import SCENARIOS, Scenario, essentials, run_standalone, world_files


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_the_standalone_runner_behaves_like_the_local_driver(scenario: Scenario, tmp_path: Path) -> None:
    spec = scenario.world(tmp_path / "local")
    state = start_run(spec, RunOptions(yes=scenario.yes, root=tmp_path / "home-local"))
    local = RunStore(state.run_id, tmp_path / "home-local").events()
    code, runner = run_standalone(scenario, tmp_path / "runner", tmp_path / "home-runner")
    assert state.status == scenario.status
    assert code == (0 if scenario.status == "reached" else 3)
    assert essentials(runner) == essentials(local)
    assert world_files(tmp_path / "runner" / "world") == world_files(tmp_path / "local")
