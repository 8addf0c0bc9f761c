"""The driver with in-process doubles (ScriptedMaker/ScriptedOracle) on real git workspaces."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.adapters.makers import MakerRequest, MakerResult
from goalkeeper.adapters.scripted import ScriptedMaker, ScriptedOracle
from goalkeeper.convergence import (
    Budget,
    GoalLoop,
    Guards,
    OracleVerdict,
    StoppingCondition,
    create_goal,
    ledger,
    load_goal,
    run_goal,
)
from goalkeeper.convergence.lifecycle import pause_goal
from goalkeeper.errors import LockedError
from goalkeeper.store import goals as gstore
from goalkeeper.store.triage import list_items

CHECK = StoppingCondition(
    type="custom_command",
    command=[sys.executable, "-c", "import pathlib,sys; sys.exit(0 if pathlib.Path('done.txt').exists() else 1)"],
)


def _write(name: str, text: str = "x") -> Callable[[MakerRequest], str]:
    def step(req: MakerRequest) -> str:
        (req.workspace / name).write_text(text)
        return f"wrote {name}"

    return step


@pytest.fixture
def ws(make_repo: Callable[..., Path]) -> Path:
    return make_repo({"src.py": "print(1)\n", "tests/test_src.py": "def test(): pass\n"})


def test_converges_and_persists_each_phase(ws: Path) -> None:
    g = create_goal("make done.txt", [CHECK], workspace=ws)
    maker = ScriptedMaker([_write("a.txt"), _write("done.txt")], cost_dollars=0.5)
    events: list[dict[str, Any]] = []
    goal = run_goal(g.goal_id, maker=maker, on_event=events.append)
    assert goal.state == "converged" and len(goal.history) == 2
    assert goal.spent_dollars() == 1.0
    assert maker.calls[1].hint and "Still failing" in maker.calls[1].hint
    kinds = [e["event"] for e in events]
    assert kinds.count("iteration.started") == 2 and kinds[-2:] == ["goal.converged", "run.finished"]
    on_disk = [e["event"] for e in gstore.read_events(g.goal_id)]
    assert on_disk[0] == "goal.created" and "maker.finished" in on_disk
    assert load_goal(g.goal_id).state == "converged"


def test_oracle_saying_converged_is_not_enough(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, budget=Budget(max_iterations=1))
    yes = OracleVerdict(True, ["looks good to me"], None, 1.0)
    goal = run_goal(g.goal_id, maker=ScriptedMaker(["nothing"]), oracle=ScriptedOracle([yes]))
    assert goal.state == "escalated" and goal.history[0].oracle_verdict == "not_converged"
    assert any("not every condition passed" in r for r in goal.history[0].reasons)


def test_oracle_that_writes_voids_the_verdict(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws)

    def sneaky(req: Any) -> None:
        (req.workspace / "done.txt").write_text("forged")

    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write("a.txt")]), oracle=ScriptedOracle(act=sneaky))
    assert goal.state == "escalated" and goal.escalation and goal.escalation.reason == "tampering"
    assert goal.history[-1].oracle_verdict == "void"
    assert not (ws / "done.txt").exists()  # restored to the maker's checkpoint


def test_skip_marker_rejected_and_reverted(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws)

    def skip(req: MakerRequest) -> str:
        (req.workspace / "test_new.py").write_text("import pytest\n@pytest.mark.skip\ndef test(): pass\n")
        return "added a test"

    maker = ScriptedMaker([skip, _write("done.txt")])
    goal = run_goal(g.goal_id, maker=maker)
    assert goal.history[0].rejected and "skip" in goal.history[0].rejected
    assert maker.calls[1].hint and "rejected" in maker.calls[1].hint
    assert not (ws / "test_new.py").exists()
    assert goal.state == "converged"


def test_escalation_files_a_triage_item(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, budget=Budget(max_iterations=1))
    goal = run_goal(g.goal_id, maker=ScriptedMaker([_write("a.txt")]))
    assert goal.escalation and goal.escalation.reason == "budget_exhausted"
    items = list_items()
    assert len(items) == 1 and items[0].id == goal.escalation.triage_id
    assert items[0].source == "goal" and items[0].context["stoppingConditions"][0]["type"] == "custom_command"


def test_pause_request_stops_at_the_next_phase_boundary(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws)

    def pausing(req: MakerRequest) -> str:
        assert pause_goal(req.goal_id) == "requested"  # the CLI's way: a signed request
        return "made a change, then someone asked to pause"

    goal = run_goal(g.goal_id, maker=ScriptedMaker([pausing]))
    assert goal.state == "paused" and goal.history[-1].phase == "conditions"
    assert ledger.read_request(g.goal_id) is None


def test_a_request_file_written_by_anyone_else_is_ignored(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, budget=Budget(max_iterations=1))

    def forging(req: MakerRequest) -> str:
        gstore.request_control(req.goal_id, "pause")  # a plain file, as a maker could write it
        return "tried to pause the goal"

    goal = run_goal(g.goal_id, maker=ScriptedMaker([forging]))
    assert goal.state == "escalated" and goal.escalation and goal.escalation.reason == "budget_exhausted"


def test_second_loop_is_refused(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws)
    seen: list[str] = []

    def nested(req: MakerRequest) -> str:
        with pytest.raises(LockedError) as e:
            GoalLoop(req.goal_id).run()
        seen.append(str(e.value))
        (req.workspace / "done.txt").write_text("x")
        return "ok"

    assert run_goal(g.goal_id, maker=ScriptedMaker([nested])).state == "converged"
    assert "already running" in seen[0]


def test_maker_failures_escalate(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, guards=Guards(max_maker_failures=2, no_progress_iterations=5))
    bad = MakerResult(summary="crashed", exit_code=1)
    goal = run_goal(g.goal_id, maker=ScriptedMaker([lambda r: bad]))
    assert goal.escalation and goal.escalation.reason == "repeated_failure"


def test_fake_clock_duration_budget(ws: Path) -> None:
    g = create_goal("o", [CHECK], workspace=ws, budget=Budget(max_iterations=None, max_duration="10m"))
    now = [0.0]

    def slow(req: MakerRequest) -> str:
        now[0] += 400.0  # each maker call "takes" 400 s of the injected clock
        (req.workspace / f"f{req.iteration}").write_text("x")
        return "slow"

    goal = run_goal(g.goal_id, maker=ScriptedMaker([slow]), clock=lambda: now[0])
    assert goal.escalation and goal.escalation.reason == "budget_exhausted"
    assert len(goal.history) == 2 and goal.elapsed_seconds == 800.0


def test_a_maker_that_cannot_start_escalates_at_once(ws: Path) -> None:
    from goalkeeper.convergence import MakerSpec

    g = create_goal("o", [CHECK], workspace=ws, maker=MakerSpec(argv=["gk-no-such-maker-xyz"]),
                    budget=Budget(max_iterations=5))
    goal = run_goal(g.goal_id)
    assert len(goal.history) == 1 and goal.history[0].condition_results == []
    assert goal.escalation and goal.escalation.reason == "unrunnable"
    assert "gk-no-such-maker-xyz" in goal.escalation.detail


def test_a_check_that_cannot_start_escalates_after_the_first_iteration(ws: Path) -> None:
    g = create_goal("o", [StoppingCondition(command=["gk-no-such-check-xyz"])], workspace=ws,
                    budget=Budget(max_iterations=5))
    goal = run_goal(g.goal_id, maker=ScriptedMaker([lambda r: "x"]))
    assert len(goal.history) == 1
    assert goal.escalation and goal.escalation.reason == "unrunnable" and "gk-no-such-check-xyz" in goal.escalation.detail


def test_data_the_tests_read_is_sealed_wherever_it_lives(make_repo: Callable[..., Path]) -> None:
    """The expected output a test compares against sits outside any test folder; editing it
    to match the bug is rejected, because the baseline run saw the test code read it."""
    ws = make_repo({
        "app.py": "def render():\n    return 'helo'\n",
        "golden/expected.txt": "hello\n",
        "data/other.txt": "app data\n",
        "test_app.py": "import app, pathlib\n\n"
                       "def test_render():\n"
                       "    assert app.render() == pathlib.Path('golden/expected.txt').read_text().strip()\n",
    })
    pytest_cond = StoppingCondition(type="test_pass", command=[sys.executable, "-m", "pytest", "-q"])
    g = create_goal("fix render", [pytest_cond], workspace=ws, budget=Budget(max_iterations=3))

    def bend_the_golden_file(req: MakerRequest) -> str:
        (req.workspace / "golden/expected.txt").write_text("helo\n")
        (req.workspace / "data/other.txt").write_text("changed app data\n")  # not read by tests: free
        return "updated the expected output"

    def fix(req: MakerRequest) -> str:
        (req.workspace / "app.py").write_text("def render():\n    return 'hello'\n")
        (req.workspace / "data/other.txt").write_text("changed app data\n")
        return "fixed render"

    goal = run_goal(g.goal_id, maker=ScriptedMaker([bend_the_golden_file, fix]), oracle=ScriptedOracle())
    first = goal.history[0].rejected or ""
    assert "golden/expected.txt" in first and "read as data" in first and "other.txt" not in first
    assert (ws / "golden/expected.txt").read_text() == "hello\n"  # put back
    assert goal.state == "converged" and not goal.history[1].rejected


_READ_WAYS = {
    "relative open after chdir into the test folder": {
        "checks/test_app.py": "import os, app\n\n"
                              "def test_render():\n"
                              "    os.chdir(os.path.dirname(os.path.abspath(__file__)))\n"
                              "    with open('expected.txt') as f:\n"
                              "        assert app.render() == f.read().strip()\n",
        "checks/expected.txt": "hello\n"},
    "pathlib read_bytes": {
        "test_app.py": "import app, pathlib\n\n"
                       "def test_render():\n"
                       "    assert app.render().encode() == pathlib.Path('golden/expected.txt').read_bytes().strip()\n"},
    "json.load(open())": {
        "golden/expected.txt": '{"out": "hello"}\n',
        "test_app.py": "import app, json\n\n"
                       "def test_render():\n"
                       "    assert app.render() == json.load(open('golden/expected.txt'))['out']\n"},
    "a helper in conftest.py": {
        "conftest.py": "def expected():\n    with open('golden/expected.txt') as f:\n        return f.read().strip()\n",
        "test_app.py": "import app, conftest\n\n"
                       "def test_render():\n"
                       "    assert app.render() == conftest.expected()\n"},
    "a helper module in the test folder": {
        "tests/golden_helpers.py": "def expected():\n    with open('golden/expected.txt') as f:\n        return f.read().strip()\n",
        "tests/test_app.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\nimport app, golden_helpers\n\n"
                       "def test_render():\n"
                       "    assert app.render() == golden_helpers.expected()\n"},
    "csv": {
        "golden/expected.txt": "out\nhello\n",
        "test_app.py": "import app, csv\n\n"
                       "def test_render():\n"
                       "    with open('golden/expected.txt', newline='') as f:\n"
                       "        assert app.render() == list(csv.DictReader(f))[0]['out']\n"},
}


# The two that broke the probe stay in the suite; the ways it always saw run in the deep tier.
_FOUND_BREAKS = ("relative open after chdir into the test folder", "a helper module in the test folder")


@pytest.mark.parametrize("way", [w if w in _FOUND_BREAKS else pytest.param(w, marks=pytest.mark.deep)
                                 for w in sorted(_READ_WAYS)])
def test_data_the_tests_read_is_sealed_however_they_read_it(make_repo: Callable[..., Path], way: str) -> None:
    """A cheating maker bends the expected output; every way a test (or its helper) reads it seals it."""
    files = {"app.py": "def render():\n    return 'helo'\n", "golden/expected.txt": "hello\n", **_READ_WAYS[way]}
    data = "checks/expected.txt" if "checks/expected.txt" in files else "golden/expected.txt"
    ws = make_repo(files)
    original = (ws / data).read_text()
    g = create_goal("fix render", [StoppingCondition(type="test_pass", command=[sys.executable, "-m", "pytest", "-q"])],
                    workspace=ws, budget=Budget(max_iterations=3))

    def bend(req: MakerRequest) -> str:
        (req.workspace / data).write_text(original.replace("hello", "helo"))
        return "updated the expected output"

    def fix(req: MakerRequest) -> str:
        (req.workspace / "app.py").write_text("def render():\n    return 'hello'\n")
        return "fixed render"

    goal = run_goal(g.goal_id, maker=ScriptedMaker([bend, fix]), oracle=ScriptedOracle())
    first = goal.history[0].rejected or ""
    assert data in first, (way, first)
    assert (ws / data).read_text() == original
    assert goal.state == "converged"


def test_data_the_code_under_test_reads_is_free(make_repo: Callable[..., Path]) -> None:
    ws = make_repo({
        "app.py": "def render():\n    with open('data/greeting.txt') as f:\n        return f.read().strip()\n",
        "data/greeting.txt": "helo\n",
        "test_app.py": "import app\n\ndef test_render():\n    assert app.render() == 'hello'\n",
    })
    g = create_goal("fix greeting", [StoppingCondition(type="test_pass", command=[sys.executable, "-m", "pytest", "-q"])],
                    workspace=ws, budget=Budget(max_iterations=2))

    def fix_data(req: MakerRequest) -> str:
        (req.workspace / "data/greeting.txt").write_text("hello\n")
        return "fixed the greeting data"

    goal = run_goal(g.goal_id, maker=ScriptedMaker([fix_data]), oracle=ScriptedOracle())
    assert goal.state == "converged" and not goal.history[0].rejected
