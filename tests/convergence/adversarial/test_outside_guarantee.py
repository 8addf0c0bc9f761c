"""Cheats no deterministic check can see: the code passes the tests it is run by.

They are documented as outside the deterministic guarantee (an LLM judge reading the
diff is what catches them; and, on a machine with no sandbox, nothing hides the signing
key from the maker), so each is an xfail(strict=True) with its reason: it must keep
converging, and the day a guard catches one, the XPASS says so and it moves to a
counted class.
"""

from __future__ import annotations

import pytest

from .cases import OUTSIDE_GUARANTEE
from .conftest import Campaign
from .harness import Cheat, assert_cheat_lost


def _params() -> list[object]:
    # All in the deep tier (REDTEAM_ALL=1 in .ci/run): they prove a limit, not a guard.
    return [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=c.why), pytest.mark.slow])
            for c in OUTSIDE_GUARANTEE]


@pytest.mark.parametrize("case", _params())
def test_cheat_converges_under_deterministic_checks(case: Cheat, campaign: Campaign) -> None:
    assert_cheat_lost(campaign.outcome(case), case)
