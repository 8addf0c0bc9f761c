"""examples/fix-the-tests runs for real: real makers, real pytest and ruff, the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.convergence import (
    Budget,
    Goal,
    MakerSpec,
    conditions_from_commands,
    create_goal,
    run_goal,
)
from goalkeeper.store.triage import get_item

from .helpers import EXAMPLE, maker_argv


def _run(variant: str, tmp_path: Path) -> tuple[int, list[dict[str, Any]]]:
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE / "run.py"), "--variant", variant, "--dest", str(tmp_path / "p"), "--json"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    events = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.startswith("{")]
    return proc.returncode, events


def test_run_py_converges_through_the_cli(tmp_path: Path) -> None:
    rc, events = _run("fix", tmp_path)
    assert rc == 0, events[-3:]
    assert [e["event"] for e in events if e["event"].startswith("goal.")][-1] == "goal.converged"
    assert sum(e["event"] == "iteration.started" for e in events) == 3
    assert "import os" not in (tmp_path / "p" / "textstats.py").read_text()


def _loop(ws: Path, maker: str, **budget: int) -> Goal:
    goal = create_goal(
        "Make the textstats tests pass and keep ruff clean",
        conditions_from_commands(["pytest -q", "ruff check ."]),
        maker=MakerSpec(argv=maker_argv(maker)),
        budget=Budget(**budget) if budget else None,
        workspace=ws,
    )
    return run_goal(goal.goal_id)


@pytest.mark.deep
@pytest.mark.parametrize(
    ("maker", "budget", "reason", "iterations"),
    [
        ("cheater.py", {}, "tampering", 2),
        ("idle.py", {}, "no_progress", 3),
        ("fixer.py", {"max_iterations": 2}, "budget_exhausted", 2),
    ],
)
def test_variants_escalate(
    example_project: Path, maker: str, budget: dict[str, int], reason: str, iterations: int
) -> None:
    goal = _loop(example_project, maker, **budget)
    assert goal.state == "escalated" and goal.escalation and goal.escalation.reason == reason
    assert len(goal.history) == iterations
    item = get_item(goal.escalation.triage_id or "")
    assert item.reason == reason and item.source_id == goal.goal_id
    if maker == "cheater.py":
        assert all(h.rejected and not h.condition_results for h in goal.history)
        text = (example_project / "tests" / "test_textstats.py").read_text()
        assert "def test_word_count_any_whitespace" in text  # the deletion was reverted
