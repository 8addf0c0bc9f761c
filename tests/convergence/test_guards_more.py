"""Guards found by review: new protected files, writes the content hash cannot see,
and an unsure oracle saying "converged"."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.adapters.makers import MakerRequest
from goalkeeper.adapters.scripted import ScriptedMaker, ScriptedOracle
from goalkeeper.convergence import Budget, OracleVerdict, StoppingCondition, create_goal, run_goal

PYTEST = StoppingCondition(type="test_pass", command=[sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"])
CHECK = StoppingCondition(
    type="custom_command",
    command=[sys.executable, "-c", "import pathlib,sys; sys.exit(0 if pathlib.Path('done.txt').exists() else 1)"],
)

CHEAT = """
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""


@pytest.fixture
def ws(make_repo: Callable[..., Path]) -> Path:
    return make_repo({
        "calc.py": "def add(a, b):\n    return a - b\n",
        "tests/test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n",
        ".gitignore": "build/\n",
    })


def _write(name: str, text: str) -> Callable[[MakerRequest], str]:
    def step(req: MakerRequest) -> str:
        p = req.workspace / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        return f"wrote {name}"

    return step


@pytest.mark.parametrize("where", ["conftest.py", "build/conftest.py"])
def test_a_new_conftest_that_fakes_results_is_rejected(ws: Path, where: str) -> None:
    g = create_goal("fix add", [PYTEST], workspace=ws, budget=Budget(max_iterations=3))
    fix = _write("calc.py", "def add(a, b):\n    return a + b\n")
    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write(where, CHEAT), fix]))
    first = goal.history[0]
    assert first.rejected and f"added pytest config file {where}" in first.rejected
    assert not (ws / where).exists()  # removed, even when gitignored
    assert goal.state == "converged" and len(goal.history) == 2


@pytest.mark.parametrize("target", ["build/out.txt", ".git/hooks/post-checkout", "node_modules/x.js"])
def test_oracle_writes_outside_the_content_hash_are_caught(ws: Path, target: str) -> None:
    g = create_goal("o", [CHECK], workspace=ws)

    def sneaky(req: Any) -> None:
        p = req.workspace / target
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("oracle was here")

    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write("done.txt", "x")]), oracle=ScriptedOracle(act=sneaky))
    assert goal.history[-1].oracle_verdict == "void"
    assert goal.escalation is not None and goal.escalation.reason == "tampering"


def test_an_unsure_converged_verdict_does_not_converge(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, budget=Budget(max_iterations=1))
    unsure = OracleVerdict(True, ["maybe"], None, 0.05)
    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write("done.txt", "x")]), oracle=ScriptedOracle([unsure]))
    assert goal.state != "converged"
    assert goal.history[0].oracle_verdict == "not_converged"
    assert any("below minConfidence" in r for r in goal.history[0].reasons)


def test_an_oracle_that_breaks_is_unsure_not_a_crash(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, budget=Budget(max_iterations=3))

    def broken(req: Any) -> None:
        raise RuntimeError("judge fell over")

    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write("done.txt", "x")] * 3), oracle=ScriptedOracle(act=broken))
    assert goal.state == "escalated" and goal.escalation is not None
    assert goal.escalation.reason == "oracle_uncertain"
    assert all(h.confidence == 0.0 and not h.cost_known for h in goal.history)
    assert any("judge fell over" in r for r in goal.history[0].reasons)


def test_a_file_swapped_during_the_checks_and_put_back_voids_the_verdict(ws: Path) -> None:
    # What a helper outside goalkeeper's containment (a tmux server, say) could do: swap the
    # fixed code in while the check reads it, then restore the original bytes. The content hash
    # is the same afterwards; the ctime is not.
    swap = ("import os, pathlib, sys; p = pathlib.Path('calc.py'); old = p.read_bytes(); "
            "p.write_text('def add(a, b):\\n    return a + b\\n'); ok = __import__('calc').add(2, 2) == 4; "
            "p.write_bytes(old); sys.exit(0 if ok else 1)")
    cond = StoppingCondition(command=[sys.executable, "-c", swap])
    g = create_goal("o", [cond], workspace=ws, budget=Budget(max_iterations=2))
    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write("other.txt", "x")]))
    assert goal.state != "converged"
    assert goal.history[0].oracle_verdict == "void"
    assert "calc.py" in " ".join(goal.history[0].reasons)
