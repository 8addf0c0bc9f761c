"""store.atomic: crash-safe JSON replace and a JSONL log that survives a torn append."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.errors import CorruptStateError, StoreError
from goalkeeper.store import (
    append_jsonl,
    decode,
    read_json,
    read_jsonl,
    safe,
    write_json_atomic,
    write_text_atomic,
)


def leftovers(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir() if p.name.endswith(".tmp"))


def test_write_and_read_roundtrip(tmp_path: Path) -> None:
    p = tmp_path / "deep" / "er" / "state.json"
    data = {"a": 1, "b": [True, None, "x"], "c": {"d": 2.5}}
    write_json_atomic(p, data)
    assert read_json(p) == data
    assert p.read_text().endswith("\n")
    assert leftovers(p.parent) == []


def test_write_replaces_existing(tmp_path: Path) -> None:
    p = tmp_path / "s.json"
    write_json_atomic(p, {"v": 1})
    write_json_atomic(p, {"v": 2})
    assert read_json(p) == {"v": 2}


def test_unserialisable_values_fall_back_to_str(tmp_path: Path) -> None:
    p = tmp_path / "s.json"
    write_json_atomic(p, {"path": tmp_path})
    assert read_json(p) == {"path": str(tmp_path)}


def test_old_file_intact_when_serialising_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "s.json"
    write_json_atomic(p, {"v": "old"})
    before = p.read_bytes()

    def boom(*a: Any, **k: Any) -> str:
        raise ValueError("cannot serialise")

    monkeypatch.setattr(decode.json, "dumps", boom)
    with pytest.raises(ValueError):
        write_json_atomic(p, {"v": "new"})
    assert p.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_old_file_intact_when_replace_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "s.json"
    write_json_atomic(p, {"v": "old"})
    before = p.read_bytes()

    def boom(*a: Any, **k: Any) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(safe.os, "replace", boom)
    with pytest.raises(OSError, match="disk on fire"):
        write_json_atomic(p, {"v": "new"})
    monkeypatch.undo()
    assert p.read_bytes() == before
    assert leftovers(tmp_path) == []  # the temp file is cleaned up


def test_old_file_intact_when_fsync_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "s.json"
    write_json_atomic(p, {"v": "old"})

    def boom(fd: int) -> None:
        raise OSError("io error")

    monkeypatch.setattr(safe.os, "fsync", boom)
    with pytest.raises(OSError):
        write_text_atomic(p, "{}")
    monkeypatch.undo()
    assert read_json(p) == {"v": "old"}
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("garbage", ["{not json", "", '{"a": 1}{', "\x00\x01"])
def test_read_json_garbage_is_corrupt_and_untouched(tmp_path: Path, garbage: str) -> None:
    p = tmp_path / "state.json"
    p.write_text(garbage)
    st = p.stat()
    with pytest.raises(CorruptStateError) as ei:
        read_json(p)
    assert str(p) in str(ei.value)
    assert "left untouched" in str(ei.value)
    assert isinstance(ei.value, StoreError)
    assert p.read_text() == garbage
    assert p.stat().st_mtime_ns == st.st_mtime_ns


def test_read_json_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_json(tmp_path / "none.json")


def test_read_json_unreadable_is_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder, not a regular file"):
        read_json(tmp_path)  # a directory


def test_jsonl_append_and_read(tmp_path: Path) -> None:
    p = tmp_path / "logs" / "events.jsonl"
    for i in range(3):
        append_jsonl(p, {"i": i, "kind": "tick"})
    assert list(read_jsonl(p)) == [{"i": 0, "kind": "tick"}, {"i": 1, "kind": "tick"}, {"i": 2, "kind": "tick"}]
    assert len(p.read_text().splitlines()) == 3


def test_jsonl_missing_file_is_empty(tmp_path: Path) -> None:
    assert list(read_jsonl(tmp_path / "none.jsonl")) == []


def test_jsonl_torn_last_line_is_skipped(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    append_jsonl(p, {"i": 0})
    append_jsonl(p, {"i": 1})
    with open(p, "a") as f:
        f.write('{"i": 2, "kin')  # crash mid-append
    assert list(read_jsonl(p)) == [{"i": 0}, {"i": 1}]


def test_jsonl_append_after_torn_line_keeps_new_records(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    append_jsonl(p, {"i": 0})
    with open(p, "a") as f:
        f.write('{"i": 1, "ki')  # crash mid-append, no newline
    append_jsonl(p, {"i": 2})  # the next process goes on logging
    assert list(read_jsonl(p)) == [{"i": 0}, {"i": 2}]


def test_jsonl_corrupt_middle_line_is_an_error(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    p.write_text('{"i": 0}\ngarbage\n{"i": 2}\n')
    with pytest.raises(CorruptStateError, match=r"e.jsonl:2"):
        list(read_jsonl(p))


def test_jsonl_skips_blank_lines_and_non_objects(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    p.write_text('{"i": 0}\n\n[1, 2]\n"x"\n{"i": 1}\n')
    assert list(read_jsonl(p)) == [{"i": 0}, {"i": 1}]


def test_append_is_one_line_per_record(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    append_jsonl(p, {"text": "multi\nline"})
    assert p.read_text().count("\n") == 1
    assert json.loads(p.read_text()) == {"text": "multi\nline"}
    assert os.path.getsize(p) > 0
