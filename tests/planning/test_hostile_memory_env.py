"""``GOALKEEPER_PLANNER_MAX_MB`` is the guard that keeps a hostile spec's search from taking the machine's
memory; a value that is not a positive number of megabytes must be refused in its own words, never read as
"no budget" (only ``none``, ``unlimited`` and ``0`` say that)."""

from __future__ import annotations

import pytest

from goalkeeper.errors import PlanningError
from goalkeeper.planning.result import MEMORY_ENV, default_memory_mb


@pytest.mark.parametrize("value", ["nan", "-5", "-0.5", "inf", "1e999"])
def test_a_memory_budget_that_is_not_a_positive_number_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                                  value: str) -> None:
    # today nan and negatives return None (unbounded) and inf is an "infinite" budget: the guard is off
    monkeypatch.setenv(MEMORY_ENV, value)
    with pytest.raises(PlanningError, match=MEMORY_ENV):
        default_memory_mb()


@pytest.mark.parametrize(("value", "expected"), [("none", None), ("0", None), ("", 2048.0), ("512", 512.0)])
def test_the_documented_values_still_read(monkeypatch: pytest.MonkeyPatch, value: str,
                                          expected: float | None) -> None:
    monkeypatch.setenv(MEMORY_ENV, value)
    assert default_memory_mb() == expected
