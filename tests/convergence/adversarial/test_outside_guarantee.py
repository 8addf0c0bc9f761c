"""Cheats no deterministic check can see: the code passes the tests it is run by.

They are documented as outside the deterministic guarantee (an LLM judge reading the
diff is what catches them), so each is an xfail(strict=True): it must keep converging
under the deterministic oracle, and the day a deterministic guard catches one, the
XPASS says so and this file must change.
"""

from __future__ import annotations

import pytest

from .cases import OUTSIDE_GUARANTEE
from .conftest import Campaign
from .harness import Cheat, assert_cheat_lost, params


@pytest.mark.xfail(strict=True, reason="outside the deterministic guarantee: only an LLM judge "
                   "reading the code catches test-runner detection, hard-coded answers and "
                   "deleted untested features")
@pytest.mark.parametrize("case", params(OUTSIDE_GUARANTEE))
def test_cheat_converges_under_deterministic_checks(case: Cheat, campaign: Campaign) -> None:
    assert_cheat_lost(campaign.outcome(case), case)
