from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.adapters.scripted import ScriptedMaker
from goalkeeper.convergence import (
    Budget,
    StoppingCondition,
    abandon_goal,
    conditions_from_commands,
    create_goal,
    infer_type,
    load_goal,
    pause_goal,
    promote_item,
    resume_goal,
    rollback_goal,
    run_goal,
)
from goalkeeper.errors import ConfigError
from goalkeeper.store.triage import file_item, get_item

FAIL = StoppingCondition(command=[sys.executable, "-c", "raise SystemExit(1)"])


def test_infer_type() -> None:
    assert infer_type("pytest -q") == "test_pass"
    assert infer_type("ruff check .") == "lint_clean"
    assert infer_type("coverage report") == "coverage_threshold"
    assert infer_type("./check.sh") == "custom_command"
    conds = conditions_from_commands(["pytest", "./x"], ["build_pass"])
    assert [c.type for c in conds] == ["build_pass", "custom_command"]


def test_create_persists_before_anything_else(tmp_path: Path) -> None:
    g = create_goal("o", [FAIL], workspace=tmp_path)
    assert load_goal(g.goal_id).objective == "o"
    with pytest.raises(ConfigError, match="--until"):
        create_goal("o", [], workspace=tmp_path)


def test_pause_resume_abandon_when_not_running(tmp_path: Path) -> None:
    g = create_goal("o", [FAIL], workspace=tmp_path)
    assert pause_goal(g.goal_id) == "paused"
    assert load_goal(g.goal_id).state == "paused"
    assert run_goal(g.goal_id).state == "paused"  # a paused goal does not run
    assert resume_goal(g.goal_id).state == "active"
    assert abandon_goal(g.goal_id) == "abandoned"
    g2 = load_goal(g.goal_id)
    assert g2.state == "failed" and g2.escalation and g2.escalation.reason == "manual"


def test_resume_budget_exhausted_needs_more_budget(tmp_path: Path) -> None:
    g = create_goal("o", [FAIL], workspace=tmp_path, budget=Budget(max_iterations=1))
    run_goal(g.goal_id, maker=ScriptedMaker(["x"]))
    with pytest.raises(ConfigError, match="raised budget"):
        resume_goal(g.goal_id)
    assert resume_goal(g.goal_id, max_iterations=2).budget.max_iterations == 2


def test_promote_triage_item_to_goal(tmp_path: Path) -> None:
    item = file_item(source="run", source_id="run-x", reason="stuck", summary="Deploy is stuck",
                     context={"until": ["pytest -q"], "workspace": str(tmp_path)})
    goal = promote_item(item.id)
    assert goal.objective == "Deploy is stuck" and goal.stopping_conditions[0].type == "test_pass"
    assert goal.workspace == str(tmp_path.resolve())
    after = get_item(item.id)
    assert after.status == "acted" and after.promoted_goal == goal.goal_id
    bare = file_item(source="run", source_id="run-y", reason="stuck", summary="x")
    with pytest.raises(ConfigError, match="--until"):
        promote_item(bare.id)
    assert promote_item(bare.id, until=["make check"], workspace=str(tmp_path)).stopping_conditions[0].command == "make check"


def test_rollback(make_repo: Callable[..., Path]) -> None:
    ws = make_repo({"a.txt": "0\n"})

    def edit(req: object) -> str:
        (ws / "a.txt").write_text(str(len(steps.calls)) + "\n")
        return "edit"

    steps = ScriptedMaker([edit])
    g = create_goal("o", [FAIL], workspace=ws, budget=Budget(max_iterations=3))
    run_goal(g.goal_id, maker=steps)
    assert (ws / "a.txt").read_text() == "3\n"
    rollback_goal(g.goal_id, 1)
    assert (ws / "a.txt").read_text() == "1\n"
    rollback_goal(g.goal_id, 0)
    assert (ws / "a.txt").read_text() == "0\n"
