"""decide() is pure: goals in, instructions out, clock passed in."""

from __future__ import annotations

from typing import Any

from goalkeeper.convergence import (
    Abandoned,
    Converged,
    Escalate,
    Finished,
    Goal,
    Paused,
    StartIteration,
    decide,
)


def _goal(history: list[dict[str, Any]] | None = None, **kw: Any) -> Goal:
    data: dict[str, Any] = {
        "goalId": "goal-abcd1234", "objective": "o",
        "stoppingConditions": [{"type": "test_pass", "command": "pytest"}],
        "history": history or [],
    }
    data.update(kw)
    return Goal.model_validate(data)


def _it(n: int, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"iteration": n, "phase": "done", "oracleVerdict": "not_converged",
                            "treeBefore": f"t{n - 1}", "treeAfter": f"t{n}", "nextHint": f"hint {n}",
                            "confidence": 1.0, "makerExitCode": 0,
                            "conditionResults": [{"type": "test_pass", "command": "pytest", "passed": False,
                                                  "signature": f"s{n}"}]}
    base.update(kw)
    return base


def test_first_iteration() -> None:
    assert decide(_goal(), 0.0) == StartIteration(1, "maker", None)


def test_next_iteration_gets_the_last_hint() -> None:
    d = decide(_goal([_it(1), _it(2)]), 0.0)
    assert d == StartIteration(3, "maker", "hint 2")


def test_resume_an_interrupted_phase_without_a_new_iteration() -> None:
    g = _goal([_it(1), _it(2, phase="conditions", hint="hint 1")])
    assert decide(g, 0.0) == StartIteration(2, "conditions", "hint 1", resumed=True)


def test_converged() -> None:
    assert decide(_goal([_it(1, oracleVerdict="converged")]), 0.0) == Converged(1)


def test_terminal_states_do_nothing() -> None:
    assert decide(_goal(state="escalated"), 0.0) == Finished("escalated")


def test_requests_and_pause() -> None:
    assert isinstance(decide(_goal(), 0.0, request="pause"), Paused)
    assert isinstance(decide(_goal(), 0.0, request="abandon"), Abandoned)
    assert isinstance(decide(_goal(state="paused"), 0.0), Paused)


def test_iteration_budget() -> None:
    d = decide(_goal([_it(1), _it(2)], budget={"maxIterations": 2}), 0.0)
    assert isinstance(d, Escalate) and d.reason == "budget_exhausted" and "limit 2" in d.detail


def test_duration_excludes_unaccounted_time_until_passed_in() -> None:
    g = _goal(elapsedSeconds=50.0, budget={"maxDuration": "1m"})
    assert isinstance(decide(g, 100.0, since=95.0), StartIteration)
    d = decide(g, 100.0, since=80.0)
    assert isinstance(d, Escalate) and d.reason == "budget_exhausted"


def test_dollar_budget_uses_last_cost() -> None:
    g = _goal([_it(1, costDollars=4.0), _it(2, costDollars=4.0)], budget={"maxDollars": 10})
    d = decide(g, 0.0)
    assert isinstance(d, Escalate) and "below the last iteration's cost" in d.detail


def test_repeated_rejection_is_tampering() -> None:
    g = _goal([_it(1, rejected="deleted protected file t.py"), _it(2, rejected="deleted protected file t.py")])
    d = decide(g, 0.0)
    assert isinstance(d, Escalate) and d.reason == "tampering"
    one = decide(_goal([_it(1), _it(2, rejected="x")]), 0.0)
    assert isinstance(one, StartIteration)


def test_void_oracle_is_tampering() -> None:
    d = decide(_goal([_it(1, oracleVerdict="void")]), 0.0)
    assert isinstance(d, Escalate) and d.reason == "tampering"


def test_no_progress_same_tree() -> None:
    hist = [_it(n, treeBefore="same", treeAfter="same") for n in (1, 2, 3)]
    d = decide(_goal(hist), 0.0)
    assert isinstance(d, Escalate) and d.reason == "no_progress"
    assert isinstance(decide(_goal(hist[:2]), 0.0), StartIteration)


def test_no_progress_same_failure() -> None:
    hist = [_it(n, conditionResults=[{"type": "test_pass", "command": "pytest", "passed": False,
                                     "signature": "same"}]) for n in (1, 2, 3)]
    d = decide(_goal(hist, guards={"noProgressIterations": 3}), 0.0)
    assert isinstance(d, Escalate) and "failed the same way" in d.detail


def test_repeated_maker_failure() -> None:
    hist = [_it(n, makerExitCode=2) for n in (1, 2, 3)]
    d = decide(_goal(hist), 0.0)
    assert isinstance(d, Escalate) and d.reason == "repeated_failure"


def test_uncertain_oracle_escalates_after_n_in_a_row() -> None:
    # One low-confidence verdict is tolerated (default maxUncertain 2); two in a row escalate.
    assert isinstance(decide(_goal([_it(1, confidence=0.2)]), 0.0), StartIteration)
    d = decide(_goal([_it(1, confidence=0.2), _it(2, confidence=0.1)]), 0.0)
    assert isinstance(d, Escalate) and d.reason == "oracle_uncertain" and "2 iterations" in d.detail
    # A confident verdict in between breaks the streak.
    hist = [_it(1, confidence=0.2), _it(2, confidence=0.9), _it(3, confidence=0.2)]
    assert isinstance(decide(_goal(hist), 0.0), StartIteration)
    d = decide(_goal([_it(1, confidence=0.2)], guards={"maxUncertain": 1}), 0.0)
    assert isinstance(d, Escalate) and d.reason == "oracle_uncertain"


def test_decide_is_pure() -> None:
    g = _goal([_it(1)])
    before = g.model_dump()
    decide(g, 123.0, since=1.0)
    assert g.model_dump() == before


def test_the_verdict_is_our_checks_and_the_oracle_together() -> None:
    from goalkeeper.convergence.decide import combine_verdict

    assert combine_verdict([True, True], True, 0.9, 0.5) == (True, [])
    ok, notes = combine_verdict([True, False], True, 0.9, 0.5)  # the oracle cannot override a failing check
    assert not ok and "not every condition passed" in notes[0]
    ok, notes = combine_verdict([True], True, 0.3, 0.5)
    assert not ok and "below minConfidence 0.50" in notes[0]
    assert combine_verdict([True], False, 1.0, 0.5) == (False, [])  # the oracle may veto
