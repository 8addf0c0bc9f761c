"""No id or link leads outside the home: every command that takes an id, with traversal and links.

For each command a planted file waits outside the home where a path-like id
would reach it. The command must refuse the id before any file is touched: no
lock, no folder, no event, nothing created in the home either. Links planted in
the home (a lock, an event log, a goal file, a run folder, the goals folder)
are refused with a clear error and their targets stay byte for byte the same.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from goalkeeper.runtime.state import RunState, RunStore
from goalkeeper.store import file_item, now_iso

from .helpers import assert_clean_failure, invoke, snapshot

GOAL_COMMANDS = [
    ["goal", "status", "{id}"], ["goal", "show", "{id}"], ["goal", "run", "{id}"], ["goal", "pause", "{id}"],
    ["goal", "resume", "{id}"], ["goal", "abandon", "{id}"], ["goal", "rollback", "{id}", "--to", "0"],
    ["goal", "export", "{id}"], ["goal", "status", "--json", "{id}"],
]
RUN_COMMANDS = [["runs", "show", "{id}"], ["runs", "show", "--json", "{id}"], ["run", "--resume", "{id}"]]
TRIAGE_COMMANDS = [
    ["triage", "show", "{id}"], ["triage", "act", "{id}"], ["triage", "dismiss", "{id}"],
    ["triage", "defer", "{id}"], ["triage", "act", "{id}", "--goal", "--until", "true"],
]


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """(home, outside): outside holds files a path-like id would reach from the home."""
    home = tmp_path / "home"
    outside = tmp_path / "outside"
    outside.mkdir()
    maker = ["sh", "-c", f"touch {outside / 'PWNED'}"]
    goal = {"schemaVersion": 1, "goalId": "goal-planted1", "objective": "planted", "state": "active",
            "stoppingConditions": [{"type": "custom_command", "command": "true"}],
            "maker": {"type": "command", "argv": maker}, "workspace": str(outside)}
    for name in ("planted", "planted-goal"):
        (outside / f"{name}.json").write_text(json.dumps(goal))
    (outside / "planted" ).mkdir()
    (outside / "planted" / "state.json").write_text(json.dumps({"run_id": "x", "spec_path": "/dev/null"}))
    return home, outside


def payloads(outside: Path, prefix: str) -> list[str]:
    return [
        "../../outside/planted", "../outside/planted", str(outside / "planted"), str(outside / "planted.json"),
        f"{prefix}-x/../../../outside/planted", "..", ".", "", "/", f"{prefix}-a\x00b", f"{prefix}-a\nb",
        "~/planted", f"{prefix}-" + "a" * 300,
    ]


def _run_matrix(world: tuple[Path, Path], commands: list[list[str]], prefix: str, what: str) -> None:
    home, outside = world
    before = snapshot(outside)
    for cmd in commands:
        for bad in payloads(outside, prefix):
            o = invoke(home, *[bad if a == "{id}" else a for a in cmd])
            assert_clean_failure(o)
            assert f"is not a {what} id" in o.err or f"no {what} matches" in o.err, (cmd, bad, o.err)
            assert not home.exists(), f"{cmd} {bad!r} created {sorted(p.name for p in home.rglob('*'))}"
    assert snapshot(outside) == before
    assert not (outside / "PWNED").exists()


def test_goal_commands_refuse_path_ids(world: tuple[Path, Path]) -> None:
    _run_matrix(world, GOAL_COMMANDS, "goal", "goal")


def test_run_commands_refuse_path_ids(world: tuple[Path, Path]) -> None:
    _run_matrix(world, RUN_COMMANDS, "run", "run")


def test_triage_commands_refuse_path_ids(world: tuple[Path, Path]) -> None:
    _run_matrix(world, TRIAGE_COMMANDS, "tri", "triage item")


@pytest.mark.parametrize("cmd", GOAL_COMMANDS + RUN_COMMANDS + TRIAGE_COMMANDS, ids=lambda c: " ".join(c))
def test_an_unknown_well_formed_id_creates_nothing(cmd: list[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    prefix = {"goal": "goal", "runs": "run", "run": "run", "triage": "tri"}[cmd[0]]
    o = invoke(home, *[f"{prefix}-nothere1" if a == "{id}" else a for a in cmd])
    assert_clean_failure(o, "no ")
    assert not home.exists()  # no lock file, no goals/ or runs/ folder for an id that does not exist


def test_the_real_cli_refuses_a_planted_goal(world: tuple[Path, Path]) -> None:
    home, outside = world
    r = subprocess.run([sys.executable, "-m", "goalkeeper", "goal", "run", "../../outside/planted"],
                       capture_output=True, text=True, timeout=60, env={**os.environ, "GOALKEEPER_HOME": str(home)})
    assert r.returncode == 1 and "is not a goal id" in r.stderr and "Traceback" not in r.stderr
    assert not (outside / "PWNED").exists() and not home.exists()


# -- links planted inside the home ------------------------------------------------------


def new_goal(home: Path, ws: Path) -> str:
    o = invoke(home, "goal", "new", "fix it", "--until", "true", "--maker", "true", "--workspace", ws)
    assert o.code == 0, o.text
    return o.out.strip().splitlines()[0]


@pytest.fixture
def target(tmp_path: Path) -> Path:
    t = tmp_path / "victim.txt"
    t.write_text("precious\n")
    return t


def _swap_for_link(p: Path, to: Path) -> None:
    if p.exists() or p.is_symlink():
        p.unlink()
    p.symlink_to(to)


@pytest.mark.parametrize("cmd", [["goal", "run"], ["goal", "resume"], ["goal", "rollback", "--to", "0"],
                                 ["goal", "pause"], ["goal", "abandon"]], ids=lambda c: " ".join(c))
def test_a_linked_goal_lock_is_refused(cmd: list[str], tmp_path: Path, target: Path) -> None:
    home = tmp_path / "home"
    gid = new_goal(home, tmp_path)
    _swap_for_link(home / "goals" / f"{gid}.lock", target)
    args = [cmd[0], cmd[1], gid, *cmd[2:]]
    o = invoke(home, *args)
    assert_clean_failure(o, "symbolic link")
    assert target.read_text() == "precious\n"


@pytest.mark.parametrize("cmd", [["goal", "pause"], ["goal", "abandon"], ["goal", "run"]],
                         ids=lambda c: " ".join(c))
def test_a_linked_event_log_is_never_appended_to(cmd: list[str], tmp_path: Path, target: Path) -> None:
    home = tmp_path / "home"
    gid = new_goal(home, tmp_path)
    _swap_for_link(home / "goals" / f"{gid}.events.jsonl", target)
    o = invoke(home, *cmd, gid)
    assert_clean_failure(o, "symbolic link")
    assert target.read_text() == "precious\n"


@pytest.mark.parametrize("cmd", GOAL_COMMANDS, ids=lambda c: " ".join(c))
def test_a_linked_goal_file_is_refused(cmd: list[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    gid = new_goal(home, tmp_path)
    planted = tmp_path / "planted.json"
    planted.write_text((home / "goals" / f"{gid}.json").read_text())
    _swap_for_link(home / "goals" / f"{gid}.json", planted)
    before = planted.read_bytes()
    o = invoke(home, *[gid if a == "{id}" else a for a in cmd])
    assert_clean_failure(o)
    assert "symbolic link" in o.err or "no goal" in o.err, o.err
    assert planted.read_bytes() == before


def test_a_linked_goals_folder_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    gid = new_goal(home, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (home / "goals").rename(elsewhere)
    (home / "goals").symlink_to(elsewhere)
    before = snapshot(elsewhere)
    for cmd in GOAL_COMMANDS:
        assert_clean_failure(invoke(home, *[gid if a == "{id}" else a for a in cmd]))
    listing = invoke(home, "goal", "list")
    assert listing.code == 0 and gid not in listing.out  # a linked folder holds no goals
    assert snapshot(elsewhere) == before


def make_run(home: Path, spec: Path, run_id: str = "run-20260101T000000-abcd") -> RunStore:
    store = RunStore(run_id, home)
    ts = now_iso()
    store.save(RunState(run_id=run_id, spec_path=str(spec), spec_sha256="0", spec_name="s", created=ts, updated=ts))
    store.append({"seq": 1, "event": "run.started"})
    return store


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    p = tmp_path / "spec.yaml"
    p.write_text("goalkeeper: 1\ngoal: {done: true}\nfacts:\n  done: {observe: {file: done}}\n"
                 "actions:\n  finish: {pre: {done: false}, effects: {done: true}, run: [touch, done]}\n")
    return p


@pytest.mark.parametrize("what", ["lock", "events.jsonl", "state.json"])
def test_linked_run_files_are_refused(what: str, tmp_path: Path, target: Path, spec: Path) -> None:
    home = tmp_path / "home"
    store = make_run(home, spec)
    _swap_for_link(store.dir / what, target)
    o = invoke(home, "run", "--resume", store.run_id)
    assert_clean_failure(o)
    assert "symbolic link" in o.err or "no run" in o.err, o.err
    assert target.read_text() == "precious\n"
    assert not (tmp_path / "done").exists()


def test_a_linked_run_folder_is_refused(tmp_path: Path, spec: Path) -> None:
    home = tmp_path / "home"
    store = make_run(home, spec)
    elsewhere = tmp_path / "elsewhere"
    store.dir.rename(elsewhere)
    store.dir.symlink_to(elsewhere)
    before = snapshot(elsewhere)
    for cmd in RUN_COMMANDS:
        assert_clean_failure(invoke(home, *[store.run_id if a == "{id}" else a for a in cmd]), "symbolic link")
    assert invoke(home, "runs", "list").code == 0
    assert snapshot(elsewhere) == before


@pytest.mark.parametrize("cmd", TRIAGE_COMMANDS, ids=lambda c: " ".join(c))
def test_a_linked_triage_item_is_refused(cmd: list[str], tmp_path: Path, target: Path) -> None:
    home = tmp_path / "home"
    item = file_item(source="run", source_id="run-1", reason="r", summary="s", root=home)
    planted = tmp_path / "planted.json"
    planted.write_text((home / "triage" / f"{item.id}.json").read_text())
    _swap_for_link(home / "triage" / f"{item.id}.json", planted)
    before = planted.read_bytes()
    o = invoke(home, *[item.id if a == "{id}" else a for a in cmd])
    assert_clean_failure(o)
    assert planted.read_bytes() == before


def test_dismiss_never_takes_a_path_from_the_items_own_id(tmp_path: Path) -> None:
    home = tmp_path / "home"
    item = file_item(source="run", source_id="run-1", reason="r", summary="s", root=home)
    p = home / "triage" / f"{item.id}.json"
    data = json.loads(p.read_text())
    data["id"] = "../../escaped"
    p.write_text(json.dumps(data))
    o = invoke(home, "triage", "dismiss", item.id)
    assert_clean_failure(o, "holds id '../../escaped'")
    assert not (tmp_path / "escaped.json").exists() and not (home.parent / "escaped.json").exists()


def test_a_goal_file_naming_another_id_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    gid = new_goal(home, tmp_path)
    p = home / "goals" / f"{gid}.json"
    data = json.loads(p.read_text())
    data["goalId"] = "goal-other001"
    p.write_text(json.dumps(data))
    assert_clean_failure(invoke(home, "goal", "abandon", gid), "holds goalId 'goal-other001'")
    assert not (home / "goals" / "goal-other001.json").exists()


def test_prefixes_and_last_resolve(tmp_path: Path) -> None:
    home = tmp_path / "home"
    gid = new_goal(home, tmp_path)
    for text in (gid, gid[:8], gid[len("goal-"):][:3], "last"):
        o = invoke(home, "goal", "status", "--json", text)
        assert o.code == 0, (text, o.text)
        assert json.loads(o.out)["goalId"] == gid
