"""Closing triage items in bulk (dismiss_matching) and on their own when the source later succeeds
(resolve_by); the CLI's bulk ``triage dismiss``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.errors import NotFoundError
from goalkeeper.store.triage import (
    dismiss_matching,
    file_item,
    get_item,
    list_items,
    resolve_by,
    set_status,
)

Run = Callable[..., subprocess.CompletedProcess[str]]


def _items(home: Path) -> dict[str, str]:
    """Four items: two from one goal, one from a run of a spec, one from the heartbeat."""
    ws = str(home.parent / "ws")
    a = file_item(source="goal", source_id="goal-aaaaaaaa", reason="no_progress", summary="a",
                  context={"goalId": "goal-aaaaaaaa", "workspace": ws,
                           "stoppingConditions": [{"type": "test_pass", "command": "pytest -q"}]}, root=home)
    b = file_item(source="goal", source_id="goal-aaaaaaaa", reason="budget_exhausted", summary="b", root=home)
    c = file_item(source="run", source_id="run-1", reason="stuck", summary="c",
                  context={"spec": "/proj/spec.yaml"}, root=home)
    d = file_item(source="heartbeat", source_id="tests", reason="scan_failed", summary="d", root=home)
    return {"a": a.id, "b": b.id, "c": c.id, "d": d.id}


def test_dismiss_matching_filters_and_dry_run(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ids = _items(home)
    dry = dismiss_matching(source="goal", dry_run=True, root=home)
    assert sorted(i.id for i in dry) == sorted([ids["a"], ids["b"]])
    assert all(i.status == "pending" for i in list_items(home))
    got = dismiss_matching(source="goal", source_id="goal-aaaaaaaa", reason="budget_exhausted", note="n", root=home)
    assert [i.id for i in got] == [ids["b"]] and get_item(ids["b"], home).status == "dismissed"
    set_status(ids["d"], "acted", root=home)
    rest = dismiss_matching(root=home)  # no filter: every open item, never a closed one
    assert sorted(i.id for i in rest) == sorted([ids["a"], ids["c"]])
    assert get_item(ids["d"], home).status == "acted"
    with pytest.raises(NotFoundError, match="sources are run, goal, heartbeat"):
        dismiss_matching(source="goals", root=home)


def test_resolve_by_closes_only_what_the_success_answers(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ids = _items(home)
    ws = str(home.parent / "ws")
    other = resolve_by("goal", "goal-bbbbbbbb", workspace="/elsewhere", commands=["pytest -q"], root=home)
    assert other == []  # another workspace answers nothing
    partial = resolve_by("goal", "goal-bbbbbbbb", workspace=ws, commands=["ruff check ."], root=home)
    assert partial == []  # the item's own condition did not run
    same_ws = resolve_by("goal", "goal-bbbbbbbb", workspace=ws, commands=[["pytest", "-q"], "ruff check ."],
                         root=home)
    assert [i.id for i in same_ws] == [ids["a"]]
    a = get_item(ids["a"], home)
    assert a.status == "resolved" and a.resolved_by and a.resolved_by["id"] == "goal-bbbbbbbb"
    assert a.public()["resolvedBy"]["kind"] == "goal"
    same_goal = resolve_by("goal", "goal-aaaaaaaa", root=home)
    assert [i.id for i in same_goal] == [ids["b"]]
    run = resolve_by("run", "run-2", spec="/proj/spec.yaml", root=home)
    assert [i.id for i in run] == [ids["c"]]
    assert get_item(ids["d"], home).status == "pending"  # the heartbeat item is nobody's success


def test_resolve_by_never_raises_on_a_damaged_inbox(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ids = _items(home)
    (home / "triage" / f"{ids['c']}.json").write_text("{torn")
    got = resolve_by("goal", "goal-aaaaaaaa", root=home)
    assert sorted(i.id for i in got) == sorted([ids["a"], ids["b"]])


def test_cli_bulk_dismiss(run_cli: Run, goalkeeper_home: Path) -> None:
    ids = _items(goalkeeper_home)
    dry = run_cli("triage", "dismiss", "--source", "goal:goal-aaaaaaaa", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    assert sorted(json.loads(dry.stdout)["wouldDismiss"]) == sorted([ids["a"], ids["b"]])
    r = run_cli("triage", "dismiss", "--reason", "stuck")
    assert r.returncode == 0 and "dismissed 1 item(s)" in r.stdout
    assert get_item(ids["c"], goalkeeper_home).status == "dismissed"
    every = json.loads(run_cli("triage", "dismiss", "--all", "--json").stdout)
    assert sorted(every["dismissed"]) == sorted([ids["a"], ids["b"], ids["d"]])
    for args, code in ((("--source", "nope"), 2), ((ids["a"], "--all"), 2), ((), 2),
                       ((ids["a"], "--dry-run"), 2), (("tri-nothere",), 1), (("",), 1)):
        bad = run_cli("triage", "dismiss", *args)
        assert bad.returncode == code and "Traceback" not in bad.stderr and bad.stderr.strip(), (args, bad.stderr)
