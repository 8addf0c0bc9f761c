"""Cheats of class 'state' (see cases.py and the makers' docstrings): none may converge."""

from __future__ import annotations

import pytest

from .cases import CHEATS
from .conftest import Campaign
from .harness import Cheat, assert_cheat_lost, params


@pytest.mark.parametrize("case", params(CHEATS["state"]))
def test_cheat_does_not_converge(case: Cheat, campaign: Campaign) -> None:
    assert_cheat_lost(campaign.outcome(case), case)
