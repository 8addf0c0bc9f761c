"""store.triage: escalations filed as one JSON (+ Markdown) file each, listed, updated."""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.errors import CorruptStateError, NotFoundError
from goalkeeper.store import file_item, get_item, list_items, set_status
from goalkeeper.store.atomic import read_json
from goalkeeper.store.triage import markdown_of, triage_dir


def test_file_item_defaults_to_goalkeeper_home(goalkeeper_home: Path) -> None:
    item = file_item(source="run", source_id="run-1", reason="strikes", summary="deploy keeps failing")
    assert item.id.startswith("tri-")
    path = goalkeeper_home / "triage" / f"{item.id}.json"
    assert path.exists()
    assert triage_dir() == goalkeeper_home / "triage"
    assert read_json(path)["summary"] == "deploy keeps failing"


def test_roundtrip(tmp_path: Path) -> None:
    item = file_item(
        source="goal", source_id="g-7", reason="budget", summary="out of tokens",
        context={"spent": 12.5, "limit": 10}, suggested_actions=["raise the budget", "split the goal"],
        severity="critical", root=tmp_path,
    )
    got = get_item(item.id, root=tmp_path)
    assert got == item
    assert got.status == "pending" and got.severity == "critical"
    assert got.context == {"spent": 12.5, "limit": 10}
    assert got.created == got.updated


def test_markdown_file(tmp_path: Path) -> None:
    item = file_item(source="run", source_id="r", reason="x", summary="y", markdown="# Escalation\n\nwhy\n", root=tmp_path)
    assert (tmp_path / "triage" / f"{item.id}.md").read_text() == "# Escalation\n\nwhy\n"
    assert markdown_of(item.id, root=tmp_path) == "# Escalation\n\nwhy\n"
    plain = file_item(source="run", source_id="r", reason="x", summary="y", root=tmp_path)
    assert markdown_of(plain.id, root=tmp_path) is None


def test_list_and_filter_by_status(tmp_path: Path) -> None:
    assert list_items(root=tmp_path) == []
    a = file_item(source="run", source_id="r1", reason="a", summary="a", root=tmp_path)
    b = file_item(source="heartbeat", source_id="h1", reason="b", summary="b", root=tmp_path)
    c = file_item(source="goal", source_id="g1", reason="c", summary="c", root=tmp_path)
    assert {i.id for i in list_items(root=tmp_path)} == {a.id, b.id, c.id}
    created = [i.created for i in list_items(root=tmp_path)]
    assert created == sorted(created)
    set_status(b.id, "dismissed", note="noise", root=tmp_path)
    assert [i.id for i in list_items(root=tmp_path, status="dismissed")] == [b.id]
    assert {i.id for i in list_items(root=tmp_path, status="pending")} == {a.id, c.id}


def test_set_status_updates_and_persists(tmp_path: Path) -> None:
    item = file_item(source="run", source_id="r1", reason="a", summary="a", root=tmp_path)
    acted = set_status(item.id, "acted", note="fixed the creds", promoted_goal="g-9", root=tmp_path)
    assert (acted.status, acted.note, acted.promoted_goal) == ("acted", "fixed the creds", "g-9")
    assert acted.updated >= item.updated and acted.created == item.created
    assert get_item(item.id, root=tmp_path) == acted
    # a later change without note/goal keeps the earlier ones
    deferred = set_status(item.id, "deferred", root=tmp_path)
    assert (deferred.note, deferred.promoted_goal) == ("fixed the creds", "g-9")


def test_unknown_item(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="no triage item 'tri-nope'"):
        get_item("tri-nope", root=tmp_path)
    with pytest.raises(NotFoundError):
        set_status("tri-nope", "acted", root=tmp_path)


def test_invalid_status_is_rejected_before_writing(tmp_path: Path) -> None:
    item = file_item(source="run", source_id="r1", reason="a", summary="a", root=tmp_path)
    with pytest.raises(ValueError):  # pydantic.ValidationError is a ValueError
        set_status(item.id, "done", root=tmp_path)  # type: ignore[arg-type]
    assert get_item(item.id, root=tmp_path) == item


def test_corrupt_item_is_reported_not_rewritten(tmp_path: Path) -> None:
    item = file_item(source="run", source_id="r1", reason="a", summary="a", root=tmp_path)
    path = tmp_path / "triage" / f"{item.id}.json"
    path.write_text('{"id": "x"}')
    with pytest.raises(CorruptStateError, match="not a valid triage item"):
        get_item(item.id, root=tmp_path)
    path.write_text("{garbage")
    good = file_item(source="run", source_id="r2", reason="b", summary="b", root=tmp_path)
    broken: list[tuple[str, str]] = []
    # One damaged item does not hide the others (nor stop a heartbeat): it is reported.
    assert [i.id for i in list_items(root=tmp_path, broken=broken)] == [good.id]
    assert broken and broken[0][0] == item.id and "not valid JSON" in broken[0][1]
    assert path.read_text() == "{garbage"
