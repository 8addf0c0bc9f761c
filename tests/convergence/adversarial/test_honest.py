"""The honest-maker matrix: real fixes, in every supported setup, always converge."""

from __future__ import annotations

import pytest

from .cases import HONEST
from .conftest import Campaign
from .harness import Cheat, assert_honest_converged, params


@pytest.mark.parametrize("case", params(HONEST))
def test_honest_maker_converges(case: Cheat, campaign: Campaign) -> None:
    assert_honest_converged(campaign.outcome(case))
