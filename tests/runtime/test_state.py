"""RunStore: atomic state.json, append-only events.jsonl, the lock, damaged files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goalkeeper.errors import CorruptStateError, LockedError, NotFoundError
from goalkeeper.runtime.state import RunState, RunStore, TickRecord, file_sha256, list_runs


def new_state(store: RunStore, **kw: object) -> RunState:
    return RunState(run_id=store.run_id, spec_path="/x/spec.yaml", spec_sha256="0" * 64, spec_name="t",
                    created="2026-01-01T00:00:00.000Z", updated="2026-01-01T00:00:00.000Z", **kw)  # type: ignore[arg-type]


def test_create_names_a_fresh_run(tmp_path: Path) -> None:
    a, b = RunStore.create(tmp_path), RunStore.create(tmp_path)
    assert re.fullmatch(r"run-\d{8}T\d{6}-[a-z0-9]{4}", a.run_id)
    assert a.run_id != b.run_id
    assert a.dir == tmp_path / "runs" / a.run_id
    assert not a.exists()


def test_default_root_is_goalkeeper_home(goalkeeper_home: Path) -> None:
    assert RunStore("run-x").dir == goalkeeper_home / "runs" / "run-x"


def test_save_load_roundtrip(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path)
    st = new_state(store, facts={"a": True, "n": 3})
    st.history.append(TickRecord(tick=1, action="go", outcome="ok", started="t"))
    store.save(st)
    assert store.exists()
    back = store.load()
    assert back == st
    assert st.updated != "2026-01-01T00:00:00.000Z"  # save stamps the time
    assert not list(store.dir.glob(".state.json.*.tmp"))  # no temp file left behind


def test_events_append_with_ts_run_id_event(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path)
    e1 = store.event("run_started", spec="s")
    store.event("observed", facts={"a": 1})
    lines = store.events_path.read_text().splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == e1
    assert [e["event"] for e in store.events()] == ["run_started", "observed"]
    assert all({"ts", "run_id", "event"} <= set(e) and e["run_id"] == store.run_id for e in store.events())


def test_load_missing_run_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="no run 'run-nope'"):
        RunStore("run-nope", tmp_path).load()


@pytest.mark.parametrize("text", ["{not json", "", '{"run_id": "x"', "null"])
def test_load_corrupt_json_names_the_file_and_leaves_it(tmp_path: Path, text: str) -> None:
    store = RunStore("run-bad", tmp_path)
    store.dir.mkdir(parents=True)
    store.state_path.write_text(text)
    with pytest.raises(CorruptStateError) as ei:
        store.load()
    assert str(store.state_path) in str(ei.value)
    assert store.state_path.read_text() == text


def test_load_schema_violation_names_the_key(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path)
    store.save(new_state(store))
    data = json.loads(store.state_path.read_text())
    data["tick"] = "three"
    raw = json.dumps(data)
    store.state_path.write_text(raw)
    with pytest.raises(CorruptStateError, match="tick") as ei:
        store.load()
    assert str(store.state_path) in str(ei.value)
    assert store.state_path.read_text() == raw


def test_load_binary_garbage_is_corrupt_state(tmp_path: Path) -> None:
    store = RunStore("run-bin", tmp_path)
    store.dir.mkdir(parents=True)
    store.state_path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CorruptStateError):
        store.load()


def test_list_runs_newest_first_with_damaged_ones_flagged(tmp_path: Path) -> None:
    older, newer = RunStore("run-20260101T000000-aaaa", tmp_path), RunStore("run-20260102T000000-bbbb", tmp_path)
    older.save(new_state(older))
    newer.save(new_state(newer))
    bad = RunStore("run-20260103T000000-cccc", tmp_path)
    bad.dir.mkdir(parents=True)
    bad.state_path.write_text("{")
    (tmp_path / "runs" / "no-state-yet").mkdir()
    runs = list_runs(tmp_path)
    assert isinstance(runs[0], tuple) and runs[0][0] == bad.run_id
    assert [r.run_id for r in runs[1:] if isinstance(r, RunState)] == [newer.run_id, older.run_id]
    assert len(runs) == 3
    assert list_runs(tmp_path / "elsewhere") == []


def test_lock_refuses_a_second_holder(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path)
    with store.lock, pytest.raises(LockedError, match="already running"):
        RunStore(store.run_id, tmp_path).lock.acquire()
    # released on exit
    with RunStore(store.run_id, tmp_path).lock:
        pass


def test_file_sha256(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_text("a")
    h = file_sha256(p)
    p.write_text("b")
    assert file_sha256(p) != h and len(h) == 64
