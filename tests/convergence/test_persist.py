from __future__ import annotations

import json
from pathlib import Path

import pytest

from goalkeeper.convergence import load_goal, migrate, save_goal
from goalkeeper.errors import CorruptStateError, NotFoundError
from goalkeeper.store import goals as gstore

# the shape of the widely copied goal-convergence schema: no schemaVersion
V0 = {
    "goalId": "goal-old00001",
    "objective": "Make CI green",
    "stoppingConditions": [{"type": "test_pass", "command": "npm test", "description": "unit tests"}],
    "budget": {"maxIterations": 15, "maxDuration": "2h", "maxDollars": 10, "spentDollars": 1.25},
    "oracle": {"model": "claude-opus", "allowedTools": ["Read", "Grep"], "prompt": "judge strictly"},
    "state": "escalated",
    "history": [{
        "iteration": 1, "makerSummary": "tried", "costDollars": 1.25, "timestamp": "2025-01-01T00:00:00Z",
        "conditionResults": [{"type": "test_pass", "command": "npm test", "passed": False, "output": "1 failing"}],
        "oracleVerdict": {"converged": False, "reasons": ["tests fail"], "nextHint": "fix auth", "confidence": 0.8},
    }],
    "escalation": {"reason": "budget_exhausted", "message": "out of money", "timestamp": "2025-01-01T01:00:00Z"},
    "owner": "someone",
}


def test_v0_file_is_migrated_on_load(goalkeeper_home: Path) -> None:
    gstore.write_goal_data("goal-old00001", V0)
    g = load_goal("goal-old00001")
    assert g.schema_version == 2
    h = g.history[0]
    assert h.oracle_verdict == "not_converged" and h.next_hint == "fix auth" and h.confidence == 0.8
    assert h.finished_at == "2025-01-01T00:00:00Z" and h.condition_results[0].output_tail == "1 failing"
    assert g.escalation and g.escalation.detail == "out of money"
    assert g.source["legacy"] == {"owner": "someone"}
    assert g.last_hint() == "fix auth"
    # the file is left as is until the next save, which writes the current shape
    assert "schemaVersion" not in json.loads(gstore.goal_path("goal-old00001").read_text())
    save_goal(g)
    assert json.loads(gstore.goal_path("goal-old00001").read_text())["schemaVersion"] == 2


def test_newer_schema_is_refused() -> None:
    with pytest.raises(CorruptStateError, match="upgrade goalkeeper"):
        migrate({"schemaVersion": 99})


def test_invalid_file_is_corrupt_and_untouched() -> None:
    gstore.write_goal_data("goal-bad00001", {"schemaVersion": 1, "goalId": "goal-bad00001", "objective": "x",
                                             "stoppingConditions": []})
    before = gstore.goal_path("goal-bad00001").read_text()
    with pytest.raises(CorruptStateError, match="stoppingConditions"):
        load_goal("goal-bad00001")
    assert gstore.goal_path("goal-bad00001").read_text() == before


def test_missing_goal() -> None:
    with pytest.raises(NotFoundError, match="goal list"):
        load_goal("goal-nope0000")
