from __future__ import annotations

import pytest

from goalkeeper.convergence import (
    Budget,
    DollarLimit,
    DurationLimit,
    IterationLimit,
    Usage,
    from_budget,
)
from goalkeeper.errors import BudgetExceeded


def test_none_means_unlimited() -> None:
    limits = IterationLimit(None) & DurationLimit(None) & DollarLimit(None)
    assert limits.exceeded(Usage(iterations=10**6, elapsed_seconds=1e9, dollars=1e9)) is None


def test_iteration_limit_quotes_limit_and_value() -> None:
    err = IterationLimit(2).exceeded(Usage(iterations=2))
    assert isinstance(err, BudgetExceeded)
    assert "limit 2" in str(err) and "observed 2" in str(err)
    assert IterationLimit(2).exceeded(Usage(iterations=1)) is None


def test_duration_limit() -> None:
    with pytest.raises(BudgetExceeded, match="duration.*7200s.*7200.5s"):
        DurationLimit(7200).check(Usage(elapsed_seconds=7200.5))


def test_dollars_refuse_an_iteration_the_remainder_cannot_pay() -> None:
    lim = DollarLimit(10)
    assert lim.exceeded(Usage(dollars=8.0, last_cost=1.5)) is None
    err = lim.exceeded(Usage(dollars=8.0, last_cost=2.5))
    assert err is not None and "below the last iteration's cost $2.50" in str(err)
    assert lim.exceeded(Usage(dollars=10.0)) is not None


def test_composition_reports_the_first_exceeded() -> None:
    lim = from_budget(Budget(max_iterations=3, max_duration="1m", max_dollars=None))
    err = lim.exceeded(Usage(iterations=1, elapsed_seconds=61))
    assert err is not None and err.kind == "duration"
