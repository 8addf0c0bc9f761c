"""store.ids: ids are names, never paths; prefixes and `last` resolve to existing ids."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from goalkeeper.errors import CorruptStateError, NotFoundError
from goalkeeper.store import goals as gstore
from goalkeeper.store.ids import check_id, existing_ids, is_id, resolve_id

BAD = ["../../outside/planted", "/etc/passwd", "goal-a/b", "goal-..", "goal-.x", "goal-a\x00b", "goal-",
       "goal-a\nb", "goal-" + "a" * 200, "", "..", "goal-a.json", "goal-a b", "GOAL-abc"]


@pytest.mark.parametrize("text", BAD)
def test_paths_and_odd_names_are_not_ids(text: str) -> None:
    assert not is_id("goal", text)
    with pytest.raises(NotFoundError, match="is not a goal id"):
        check_id("goal", text)


@pytest.mark.parametrize(("kind", "text"), [("goal", "goal-k3j4h5g6"), ("goal", "goal-ABCD1234"),
                                            ("run", "run-20260101T120000-ab12"), ("run", "run-1"),
                                            ("triage", "tri-k3j4h5g6"), ("goal", "goal-a_b-c")])
def test_well_formed_ids(kind: str, text: str) -> None:
    assert check_id(kind, text) == text  # type: ignore[arg-type]


def make_goal(gid: str) -> None:
    gstore.write_goal_data(gid, {"goalId": gid})


def test_exact_prefix_and_last(goalkeeper_home: Path) -> None:
    make_goal("goal-abc11111")
    make_goal("goal-abd22222")
    make_goal("goal-zzz33333")
    os.utime(gstore.goal_path("goal-abc11111"), (1, 1))
    assert resolve_id("goal", "goal-abd22222") == "goal-abd22222"
    assert resolve_id("goal", "goal-abc") == "goal-abc11111"
    assert resolve_id("goal", "zz") == "goal-zzz33333"  # without the goal- part
    with pytest.raises(NotFoundError, match="matches 2 goals"):
        resolve_id("goal", "ab")
    with pytest.raises(NotFoundError, match="no goal matches 'qq'"):
        resolve_id("goal", "qq")
    assert resolve_id("goal", "goal-qq") == "goal-qq"  # well-formed: the caller says "no goal"
    os.utime(gstore.goal_path("goal-abc11111"), (2**31, 2**31))
    assert resolve_id("goal", "last") == "goal-abc11111"


def test_last_with_nothing_says_so() -> None:
    with pytest.raises(NotFoundError, match="no goal yet"):
        resolve_id("goal", "last")


@pytest.mark.parametrize("text", BAD)
def test_resolving_a_path_touches_nothing(text: str, goalkeeper_home: Path) -> None:
    with pytest.raises(NotFoundError):
        resolve_id("goal", text)
    assert not goalkeeper_home.exists()


def test_side_files_are_not_listed_and_damaged_entries_are(goalkeeper_home: Path, tmp_path: Path) -> None:
    make_goal("goal-real0001")
    gstore.append_event("goal-real0001", "x")
    outside = tmp_path / "planted.json"
    outside.write_text("{}")
    (goalkeeper_home / "goals" / "goal-link0001.json").symlink_to(outside)
    (goalkeeper_home / "goals" / "notes.txt").write_text("x")
    (goalkeeper_home / "runs").mkdir()
    (goalkeeper_home / "runs" / "run-link").symlink_to(tmp_path)
    (goalkeeper_home / "runs" / "run-real").mkdir()
    ids = existing_ids("goal")
    assert sorted(ids) == ["goal-link0001", "goal-real0001"]  # the link is listed, to be refused by name
    assert ids["goal-link0001"] == 0.0 < ids["goal-real0001"]
    assert sorted(existing_ids("run")) == ["run-link", "run-real"]
    with pytest.raises(CorruptStateError, match="symbolic link"):
        gstore.read_goal_data("goal-link0001")
