"""The raw goal store: paths, events, control requests, lock."""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.errors import LockedError, NotFoundError
from goalkeeper.store import goals as gstore


def test_write_read_list(goalkeeper_home: Path) -> None:
    gstore.write_goal_data("goal-aaaaaaaa", {"goalId": "goal-aaaaaaaa"})
    assert gstore.goal_path("goal-aaaaaaaa") == goalkeeper_home / "goals" / "goal-aaaaaaaa.json"
    assert gstore.read_goal_data("goal-aaaaaaaa") == {"goalId": "goal-aaaaaaaa"}
    gstore.append_event("goal-aaaaaaaa", "x", n=1)  # side files are not goals
    assert gstore.list_goal_ids() == ["goal-aaaaaaaa"]
    with pytest.raises(NotFoundError):
        gstore.read_goal_data("goal-bbbbbbbb")


def test_events_are_appended_in_order() -> None:
    gstore.append_event("goal-aaaaaaaa", "one")
    gstore.append_event("goal-aaaaaaaa", "two", iteration=2)
    evs = gstore.read_events("goal-aaaaaaaa")
    assert [e["event"] for e in evs] == ["one", "two"] and evs[1]["iteration"] == 2 and "ts" in evs[0]


def test_control_requests() -> None:
    assert gstore.read_request("goal-aaaaaaaa") is None
    with pytest.raises(NotFoundError):  # no request file for a goal that does not exist
        gstore.request_control("goal-aaaaaaaa", "pause")
    gstore.write_goal_data("goal-aaaaaaaa", {"goalId": "goal-aaaaaaaa"})
    gstore.request_control("goal-aaaaaaaa", "pause")
    assert gstore.read_request("goal-aaaaaaaa") == "pause"
    gstore.clear_request("goal-aaaaaaaa")
    gstore.clear_request("goal-aaaaaaaa")
    assert gstore.read_request("goal-aaaaaaaa") is None


def test_one_lock_per_goal(goalkeeper_home: Path) -> None:
    with pytest.raises(NotFoundError):  # no lock file (nor folder) for a goal that does not exist
        gstore.goal_lock("goal-aaaaaaaa")
    assert not goalkeeper_home.exists()
    gstore.write_goal_data("goal-aaaaaaaa", {"goalId": "goal-aaaaaaaa"})
    with gstore.goal_lock("goal-aaaaaaaa"), pytest.raises(LockedError, match="goal goal-aaaaaaaa"):
        gstore.goal_lock("goal-aaaaaaaa").acquire()
    with gstore.goal_lock("goal-aaaaaaaa"):
        pass
