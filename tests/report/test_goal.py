"""The goal report, pure: phase times from the event log, escaping, and logs that are damaged."""

from __future__ import annotations

from goalkeeper.convergence.goal import ConditionResult, Goal, Iteration, StoppingCondition
from goalkeeper.report import DiffStat, phase_times, render_goal


def _goal(**kw: object) -> Goal:
    return Goal(goal_id="goal-abcdefgh", objective="fix <it>", stopping_conditions=[StoppingCondition(
        command="pytest -q", type="test_pass")], **kw)  # type: ignore[arg-type]


EVENTS = [
    {"ts": "2026-01-01T00:00:00.000Z", "event": "run.started"},
    {"ts": "2026-01-01T00:00:01.000Z", "event": "iteration.started", "iteration": 1},
    {"ts": "2026-01-01T00:00:04.000Z", "event": "maker.finished", "iteration": 1},
    {"ts": "2026-01-01T00:00:06.500Z", "event": "conditions.finished", "iteration": 1},
    {"ts": "2026-01-01T00:00:07.000Z", "event": "oracle.finished", "iteration": 1},
]


def test_phase_times_come_from_the_event_log() -> None:
    t = phase_times(EVENTS)[1]
    assert (t.start, t.maker, t.checks, t.oracle) == (1.0, 3.0, 5.5, 6.0)


def test_a_restarted_iteration_counts_from_its_last_start() -> None:
    events = [*EVENTS[:3], {"ts": "2026-01-01T00:00:10.000Z", "event": "iteration.started", "iteration": 1},
              {"ts": "2026-01-01T00:00:12.000Z", "event": "maker.finished", "iteration": 1}]
    t = phase_times(events)[1]
    assert (t.start, t.maker, t.checks) == (10.0, 2.0, None)


def test_damaged_events_are_skipped_not_fatal() -> None:
    junk = [{"ts": "yesterday", "event": "iteration.started", "iteration": 1}, {"event": "maker.finished"},
            {"ts": 5, "iteration": "1"}, {"ts": "2026-01-01T00:00:00Z", "event": "iteration.started",
                                           "iteration": True}, {}]
    assert phase_times(junk) == {}
    page = render_goal(_goal(), junk)
    assert "goal-abcdefgh" in page and "no iteration has run yet" in page


def test_the_page_escapes_everything_a_maker_or_check_wrote() -> None:
    res = ConditionResult(type="test_pass", command="pytest -q", passed=False, summary="<b>1 failed</b>",
                          output_tail="</pre><script>alert(1)</script>")
    it = Iteration(iteration=1, maker_summary="<img src=x onerror=alert(1)>", condition_results=[res],
                   reasons=["<i>not yet</i>"], oracle_verdict="not_converged", next_hint="<a href=x>go</a>")
    page = render_goal(_goal(history=[it], state="escalated"), EVENTS, {1: DiffStat(2, 10, 3)})
    for raw in ("<script>alert", "<img src=x", "<b>1 failed", "<i>not yet", "<a href=x>", "fix <it>"):
        assert raw not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "fix &lt;it&gt;" in page
    assert "2 file(s)" in page and "+10" in page and "escalated" in page
    assert "3.00 s" in page and "2.50 s" in page  # maker and checks durations
    assert "http" not in page.replace('http-equiv', '')  # nothing to fetch
