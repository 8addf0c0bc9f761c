"""The run report, pure: the plan graph draws what ran and what is planned; names are escaped."""

from __future__ import annotations

from goalkeeper.report import render_run
from goalkeeper.runtime.state import ReplanRecord, RunState, TickRecord


def _run(**kw: object) -> RunState:
    base: dict[str, object] = {"run_id": "run-abcdefgh", "spec_path": "/x/spec.yaml", "spec_sha256": "0" * 64,
                               "spec_name": "<deploy>", "created": "2026-01-01T00:00:00Z",
                               "updated": "2026-01-01T00:00:05Z"}
    return RunState.model_validate({**base, **kw})


def test_the_plan_graph_shows_ran_and_planned_actions() -> None:
    ticks = [TickRecord(tick=1, action="build", outcome="ok", started="2026-01-01T00:00:00Z", seconds=1.5),
             TickRecord(tick=2, action="test<x>", outcome="failed", reason="exit 1",
                        started="2026-01-01T00:00:02Z", seconds=0.5)]
    page = render_run(_run(history=ticks, plan=["deploy"], status="running", tick=2,
                           replans=[ReplanRecord(tick=2, failed=["test<x>"], corrections=[], blocked=[])],
                           facts={"built": True}, sources={"built": "observed"}))
    assert page.count('class="node"') == 4  # build, test, deploy, goal
    assert 'stroke-dasharray="4 3"' in page  # the planned part is dashed
    assert "test&lt;x&gt;" in page and "test<x>" not in page and "&lt;deploy&gt;" in page
    assert "tick 2" in page and "exit 1" in page and "built" in page


def test_a_run_that_never_ticked_still_renders() -> None:
    page = render_run(_run(status="error", escalation={"reason": "unrunnable", "detail": "no <bin>"}))
    assert "no tick has run" in page and "no &lt;bin&gt;" in page and "no timing recorded" in page
