"""Rework that points at the code: hints name where each test fails, attributed to iterations."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from goalkeeper.adapters.makers import MakerRequest
from goalkeeper.adapters.scripted import ScriptedMaker
from goalkeeper.convergence import Budget, StoppingCondition, create_goal, run_goal

from .helpers import git

PYTEST = StoppingCondition(type="test_pass", command=[sys.executable, "-m", "pytest", "-q", "-p", "no:randomly"])
APP = "def parse(text):\n    raise ValueError('not yet')\n\n\ndef size(text):\n    return len(parse(text))\n"
TESTS = "from app import size\n\n\ndef test_size():\n    assert size('a b') == 2\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    (w / "tests").mkdir(parents=True)
    (w / "app.py").write_text(APP)
    (w / "tests" / "test_app.py").write_text(TESTS)
    (w / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    git(w, "init", "-q")
    return w


def _rework(n: int):  # type: ignore[no-untyped-def]
    def step(req: MakerRequest) -> str:
        (req.workspace / "app.py").write_text(APP.replace("'not yet'", f"'still not, try {n}'"))
        return f"try {n}"
    return step


def test_the_hint_names_the_failing_line_and_who_changed_it(ws: Path) -> None:
    g = create_goal("o", [PYTEST], workspace=ws, budget=Budget(max_iterations=1))
    goal = run_goal(g.goal_id, maker=ScriptedMaker([_rework(1)]))
    hint = goal.history[0].next_hint or ""
    assert "tests/test_app.py::test_size: ValueError: still not, try 1" in hint
    assert "fails at app.py:2 in parse (last changed in iteration 1)" in hint
    assert "app.py:6 size (unchanged since the goal started)" in hint


@pytest.mark.deep  # a whole run: the pure blame tests stay in the suite
def test_a_function_reworked_three_times_without_success_escalates(ws: Path) -> None:
    g = create_goal("o", [PYTEST], workspace=ws, budget=Budget(max_iterations=8))
    goal = run_goal(g.goal_id, maker=ScriptedMaker([_rework(1), _rework(2), _rework(3), _rework(4)]))
    assert goal.escalation and goal.escalation.reason == "repeated_failure"
    assert "app.py parse() was reworked in iterations 1, 2, 3" in goal.escalation.detail
    assert len(goal.history) == 3
