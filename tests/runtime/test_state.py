"""RunStore: atomic state.json, append-only events.jsonl, the lock, damaged files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goalkeeper.errors import CorruptStateError, LockedError, NotFoundError
from goalkeeper.runtime.state import (
    RunState,
    RunStore,
    TickRecord,
    file_sha256,
    list_runs,
    reconcile,
)


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


def test_events_append_under_the_envelope_and_commit_saves_after(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path)
    e1 = store.append({"seq": 1, "event": "run.started", "spec": "s"})
    st = new_state(store, seq=1)
    store.commit(st, "run.failed", reason="x")
    lines = store.events_path.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0]) == e1
    assert [(e["seq"], e["event"]) for e in store.events()] == [(1, "run.started"), (2, "run.failed")]
    assert all(list(e)[:4] == ["ts", "runId", "seq", "event"] and e["runId"] == store.run_id
               for e in store.events())
    assert store.load().seq == 2 and store.last_seq() == 2


@pytest.mark.parametrize("run_id", ["", ".", "..", "../x", "a/b"])
def test_a_run_id_that_is_a_path_is_no_run(tmp_path: Path, run_id: str) -> None:
    with pytest.raises(NotFoundError, match="no run|is not a run id"):
        RunStore(run_id, tmp_path)


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


def test_list_runs_newest_first_with_damaged_and_never_started_ones_flagged(tmp_path: Path) -> None:
    older, newer = RunStore("run-20260101T000000-aaaa", tmp_path), RunStore("run-20260102T000000-bbbb", tmp_path)
    older.save(new_state(older))
    newer.save(new_state(newer))
    bad = RunStore("run-20260103T000000-cccc", tmp_path)
    bad.dir.mkdir(parents=True)
    bad.state_path.write_text("{")
    killed = RunStore("run-20260104T000000-dddd", tmp_path)
    with killed.lock:  # a run killed before its first state: only the lock is left
        pass
    runs = list_runs(tmp_path)
    assert [(r.run_id, r.status) for r in runs] == [
        (killed.run_id, "never started"), (bad.run_id, "corrupt"), (newer.run_id, "running"),
        (older.run_id, "running")]
    assert runs[1].error and "state.json" in runs[1].error and runs[2].state is not None
    assert list_runs(tmp_path / "elsewhere") == []
    with pytest.raises(NotFoundError, match="never started"):
        killed.load()


def _events(*kinds: str) -> list[dict[str, object]]:
    return [{"seq": n, "event": k, **extra} for n, (k, extra) in enumerate((
        (k, {"tick": 1, "action": "go", "started": "t"}) for k in kinds), 1)]


def test_reconcile_applies_events_the_state_missed(tmp_path: Path) -> None:
    # Killed after tick.started and action.finished were logged, before either state was saved.
    store = RunStore.create(tmp_path)
    st = new_state(store)
    evs = _events("tick.started", "action.finished")
    evs[1].update(outcome="ok", strikes=0)
    fixed, extra = reconcile(st, evs)
    assert extra == [] and fixed.seq == 2 and fixed.pending is None
    assert [(h.tick, h.action, h.outcome) for h in fixed.history] == [(1, "go", "ok")]


def test_reconcile_writes_back_steps_the_log_lost(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path)
    st = new_state(store, seq=3, tick=1)
    st.history.append(TickRecord(tick=1, action="go", outcome="ok", started="t"))
    fixed, extra = reconcile(st, _events("tick.started"))  # the log stops before the finish
    (rec,) = extra
    assert rec["event"] == "run.reconciled" and rec["seq"] == 4 and fixed.seq == 4
    assert [(h["tick"], h["action"]) for h in rec["history"]] == [(1, "go")]
    assert reconcile(fixed, [*_events("tick.started"), rec])[1] == []  # once is enough


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
