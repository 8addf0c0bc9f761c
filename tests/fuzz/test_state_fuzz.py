"""State readers under fuzzing: damaged goal, run, triage and log files give a clear store error.

Every reader may only raise a ``GoalkeeperError`` (``CorruptStateError`` naming the
file, or ``NotFoundError``), and a listing skips a damaged file instead of failing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.convergence import list_goals, load_goal
from goalkeeper.errors import CorruptStateError, GoalkeeperError
from goalkeeper.runtime.state import RunStore, list_runs
from goalkeeper.store import goals as gstore
from goalkeeper.store import list_items, read_jsonl
from goalkeeper.store.triage import get_item, markdown_of

from .strategies import binary_blobs, goal_document, json_values, mutated, state_mutations

FAST = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
GID = "goal-fuzz0001"
RID = "run-20260101T000000-fuzz"
TID = "tri-fuzz0001"

RUN_DOC: dict[str, Any] = {
    "schema_version": 1, "run_id": RID, "spec_path": "/nonexistent/spec.yaml", "spec_sha256": "0" * 64,
    "spec_name": "s", "status": "running", "created": "2026-01-01T00:00:00.000Z",
    "updated": "2026-01-01T00:00:00.000Z", "facts": {"a": True}, "plan": ["x"],
    "history": [{"tick": 1, "action": "x", "outcome": "ok", "started": "2026-01-01T00:00:00.000Z"}],
}
TRIAGE_DOC: dict[str, Any] = {
    "id": TID, "created": "2026-01-01T00:00:00.000Z", "updated": "2026-01-01T00:00:00.000Z", "source": "run",
    "source_id": RID, "severity": "warning", "reason": "strikes", "summary": "deploy keeps failing",
    "context": {"k": [1, 2]}, "suggested_actions": ["look"], "status": "pending",
}


def put(p: Path, data: str | bytes) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    if p.is_symlink() or p.exists():
        p.unlink()
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass"))
    return p


def only_store_errors(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except GoalkeeperError as e:
        assert str(e) and "Traceback" not in str(e)


@FAST
@given(text=state_mutations(goal_document()))
def test_damaged_goal_files(goalkeeper_home: Path, text: str) -> None:
    put(goalkeeper_home / "goals" / f"{GID}.json", text)
    put(goalkeeper_home / "goals" / "goal-good0001.json", json.dumps({**goal_document(), "goalId": "goal-good0001"}))
    only_store_errors(load_goal, GID)
    only_store_errors(gstore.read_request, GID)
    broken: list[tuple[str, str]] = []
    listed = [g.goal_id for g in list_goals(broken=broken)]
    assert "goal-good0001" in listed  # one damaged file never takes the listing down
    assert GID in listed or [b[0] for b in broken] == [GID]


@FAST
@given(text=state_mutations(RUN_DOC))
def test_damaged_run_state(goalkeeper_home: Path, text: str) -> None:
    put(goalkeeper_home / "runs" / RID / "state.json", text)
    only_store_errors(RunStore(RID).load)
    runs = list_runs()
    assert len(runs) == 1


@FAST
@given(text=state_mutations(TRIAGE_DOC))
def test_damaged_triage_items(goalkeeper_home: Path, text: str) -> None:
    put(goalkeeper_home / "triage" / f"{TID}.json", text)
    put(goalkeeper_home / "triage" / f"{TID}.md", text)
    only_store_errors(get_item, TID)
    only_store_errors(markdown_of, TID)
    broken: list[tuple[str, str]] = []
    items = list_items(broken=broken)
    assert len(items) + len(broken) == 1


events_text = st.lists(st.one_of(json_values.map(json.dumps), st.text(max_size=30)), max_size=8).map("\n".join)


@FAST
@given(text=events_text | mutated('{"ts": "x", "event": "a"}\n{"ts": "y", "event": "b"}\n'), blob=binary_blobs)
def test_damaged_event_logs(goalkeeper_home: Path, text: str, blob: bytes) -> None:
    for data in (text, blob):
        p = put(goalkeeper_home / "goals" / f"{GID}.events.jsonl", data)
        try:
            recs = list(read_jsonl(p))
        except CorruptStateError:
            continue
        assert all(isinstance(r, dict) for r in recs)


def test_special_files_in_place_of_state(goalkeeper_home: Path, tmp_path: Path) -> None:
    goals = goalkeeper_home / "goals"
    goals.mkdir(parents=True)
    put(goals / "goal-good0001.json", json.dumps({**goal_document(), "goalId": "goal-good0001"}))
    os.mkfifo(goals / "goal-fifo0001.json")
    (goals / "goal-dir00001.json").mkdir()
    (goals / "goal-zero0001.json").symlink_to("/dev/zero")
    (goals / "goal-rand0001.json").symlink_to("/dev/urandom")
    with open(goals / "goal-huge0001.json", "wb") as f:
        f.truncate((64 << 20) + 1)
    broken: list[tuple[str, str]] = []
    assert [g.goal_id for g in list_goals(broken=broken)] == ["goal-good0001"]
    assert sorted(b[0] for b in broken) == ["goal-dir00001", "goal-fifo0001", "goal-huge0001", "goal-rand0001",
                                            "goal-zero0001"]  # each named, with why
    assert all(why.startswith(str(goals)) for _, why in broken)
    for gid in ("goal-fifo0001", "goal-dir00001", "goal-zero0001", "goal-huge0001"):
        only_store_errors(load_goal, gid)


@pytest.mark.parametrize("odd", [5, {"a": 1}, "text", [1, 2]])
def test_an_unversioned_goal_with_odd_condition_results_is_reported_not_raised(
        goalkeeper_home: Path, odd: Any) -> None:
    put(goalkeeper_home / "goals" / f"{GID}.json",
        json.dumps({"goalId": GID, "objective": "x", "history": [{"conditionResults": odd}]}))
    only_store_errors(load_goal, GID)
    broken: list[tuple[str, str]] = []
    list_goals(broken=broken)
    assert [b[0] for b in broken] == [GID]
