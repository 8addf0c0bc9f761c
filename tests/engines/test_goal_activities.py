"""The maker activity's record per (goal, iteration, attempt), called directly (no server needed).

These are the worker-side halves of the late-maker promise: a finished maker
leaves a record; recovery adopts it; a stale call and a restart after a
finished attempt run nothing. test_temporal_late_maker.py shows the whole
path on a real dev server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from temporalio.exceptions import ApplicationError

from goalkeeper.convergence import (
    Budget,
    Goal,
    MakerSpec,
    StoppingCondition,
    create_goal,
    load_goal,
)
from goalkeeper.convergence.decide import StartIteration
from goalkeeper.engines.temporal import goal_activities as ga
from goalkeeper.store import goals as gstore
from goalkeeper.store.home import home

MAKER = 'echo run >> "$SIDE/runs"; echo fixed > fixed; echo \'{"summary": "fixed", "costDollars": 0.25}\''


@pytest.fixture
def side(tmp_path: Path) -> Path:
    d = tmp_path / "side"
    d.mkdir()
    return d


def _opened(tmp_path: Path, side: Path) -> tuple[Goal, Path]:
    """A goal whose iteration 1 is open (phase maker), as the workflow holds it."""
    ws = tmp_path / "ws"
    ws.mkdir()
    g = create_goal("fix", [StoppingCondition(command=["test", "-e", "fixed"])], workspace=ws,
                    maker=MakerSpec(argv=["sh", "-c", MAKER], env={"SIDE": str(side)}, sandbox="none"),
                    budget=Budget(max_iterations=3, max_duration="10m"))
    root = home().resolve()
    goal = Goal.model_validate(ga._start(_inp(g, root)))
    goal = Goal.model_validate(ga._open({**_inp(goal, root),
                                         "decision": ga.decision_to_dict(StartIteration(1, "maker"))}))
    return goal, root


def _inp(goal: Goal, root: Path) -> dict[str, Any]:
    return {"goal": goal.dump(), "store": str(root)}


def _runs(side: Path) -> int:
    p = side / "runs"
    return len(p.read_text().splitlines()) if p.exists() else 0


def test_a_finished_maker_leaves_a_record_that_recovery_adopts(tmp_path: Path, side: Path) -> None:
    opened, root = _opened(tmp_path, side)
    after = Goal.model_validate(ga._maker(_inp(opened, root)))
    assert _runs(side) == 1 and after.history[-1].phase == "conditions"
    record = ga.maker_record_path(root, opened.goal_id, 1, 0)
    data = json.loads(record.read_text())
    assert data.pop("mac") and Goal.model_validate(data).history[-1].maker_cost_dollars == 0.25  # signed

    # The workflow never saw that result (cut off); it recovers from what it still holds.
    got = Goal.model_validate(ga._recover(_inp(opened, root)))
    assert got.history[-1].phase == "conditions" and got.history[-1].maker_cost_dollars == 0.25
    assert _runs(side) == 1
    ev = [e for e in gstore.read_events(opened.goal_id, root) if e["event"] == "maker.recovered"]
    assert ev and ev[-1]["iteration"] == 1 and ev[-1]["costDollars"] == 0.25
    assert load_goal(opened.goal_id, root).history[-1].phase == "conditions"  # the file agrees


def test_without_a_record_recovery_leaves_the_maker_phase_for_a_restart(tmp_path: Path, side: Path) -> None:
    opened, root = _opened(tmp_path, side)
    got = Goal.model_validate(ga._recover(_inp(opened, root)))
    assert got.history[-1].phase == "maker" and got.history[-1].restarts == 0
    assert "maker.recovered" not in [e["event"] for e in gstore.read_events(opened.goal_id, root)]


def test_a_torn_record_is_no_result(tmp_path: Path, side: Path) -> None:
    opened, root = _opened(tmp_path, side)
    ga._maker(_inp(opened, root))
    ga.maker_record_path(root, opened.goal_id, 1, 0).write_text('{"goalId": "goal-')
    # the goal file still shows the maker's committed result, so that is adopted instead
    got = Goal.model_validate(ga._recover(_inp(opened, root)))
    assert got.history[-1].phase == "conditions" and _runs(side) == 1


def test_a_restart_after_an_attempt_that_did_finish_runs_nothing(tmp_path: Path, side: Path) -> None:
    opened, root = _opened(tmp_path, side)
    ga._maker(_inp(opened, root))  # attempt 0 finished, but its result and the recovery were lost
    restarted = Goal.model_validate(ga._open({**_inp(opened, root), "decision": ga.decision_to_dict(
        StartIteration(1, "maker", resumed=True))}))
    assert restarted.history[-1].restarts == 1
    got = Goal.model_validate(ga._maker(_inp(restarted, root)))
    assert _runs(side) == 1  # attempt 0's result, not a second maker run
    assert got.history[-1].phase == "conditions" and got.history[-1].maker_cost_dollars == 0.25


def test_a_stale_maker_call_superseded_by_a_restart_is_refused(tmp_path: Path, side: Path) -> None:
    opened, root = _opened(tmp_path, side)
    ga._open({**_inp(opened, root), "decision": ga.decision_to_dict(StartIteration(1, "maker", resumed=True))})
    with pytest.raises(ApplicationError, match="superseded") as e:
        ga._maker(_inp(opened, root))  # attempt 0 arrives after the workflow opened attempt 1
    assert e.value.type == "Superseded" and e.value.non_retryable
    assert _runs(side) == 0


def test_a_forged_record_is_ignored(tmp_path: Path, side: Path) -> None:
    """A maker without a sandbox could write into the store; an unsigned claim of a result counts for nothing."""
    opened, root = _opened(tmp_path, side)
    fake = opened.model_copy(deep=True)
    fake.history[-1].phase, fake.history[-1].maker_summary = "conditions", "all done, trust me"
    path = ga.maker_record_path(root, opened.goal_id, 1, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fake.model_dump_json(by_alias=True))
    got = Goal.model_validate(ga._recover(_inp(opened, root)))
    assert got.history[-1].phase == "maker"  # no result: the maker will run again
    path.write_text(fake.model_dump_json(by_alias=True)[:-1] + ', "mac": "' + "0" * 64 + '"}')
    assert Goal.model_validate(ga._recover(_inp(opened, root))).history[-1].phase == "maker"


def test_maker_records_go_once_the_iteration_is_past_its_maker_and_with_the_goal(tmp_path: Path, side: Path) -> None:
    from goalkeeper.convergence.decide import Converged
    from goalkeeper.convergence.edit import delete_goal

    opened, root = _opened(tmp_path, side)
    after = Goal.model_validate(ga._maker(_inp(opened, root)))
    record = ga.maker_record_path(root, opened.goal_id, 1, 0)
    stale = ga.maker_record_path(root, opened.goal_id, 7, 0)  # a later iteration's: kept until its turn
    stale.write_text("{}")
    assert record.exists()
    checked = Goal.model_validate(ga._conditions(_inp(after, root)))
    assert not record.exists() and stale.exists()
    assert checked.history[-1].phase == "oracle"
    ga._finish({**_inp(checked, root), "decision": ga.decision_to_dict(Converged(1))})
    assert not record.parent.exists()  # a finished goal keeps no maker records

    record.parent.mkdir()
    record.write_text("{}")
    delete_goal(opened.goal_id, force=True, root=root)
    assert not record.parent.exists()  # nor does a deleted one
