"""`goalkeeper runs list|show` against runs made by the real driver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goalkeeper.runtime import RunOptions, RunState, start_run
from tests.runtime.helpers import gk, json_lines, write_spec

GOOD = """
    goalkeeper: 1
    name: good
    goal: {done: true}
    facts: {done: {observe: {file: done}}}
    actions:
      go: {pre: {done: false}, effects: {done: true}, run: "touch done"}
"""

BAD = """
    goalkeeper: 1
    name: bad
    goal: {done: true}
    facts:
      done: {observe: {file: done}}
      ready: {diagnostic: true, initial: true, observe: {file: ready}}
    actions:
      go: {pre: {done: false}, effects: {done: true}, run: "echo nope >&2; exit 1"}
    policy: {strikes: 2}
"""


@pytest.fixture
def two_runs(tmp_path: Path, goalkeeper_home: Path) -> tuple[RunState, RunState]:
    good = start_run(write_spec(tmp_path / "good", GOOD), RunOptions(root=goalkeeper_home))
    bad = start_run(write_spec(tmp_path / "bad", BAD), RunOptions(root=goalkeeper_home))
    assert good.status == "reached" and bad.status == "escalated"
    return good, bad


def test_list_empty(tmp_path: Path, goalkeeper_home: Path) -> None:
    r = gk("runs", "list", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0 and "no runs yet" in r.stdout
    r = gk("runs", "list", "--json", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0 and json_lines(r.stdout) == [[]]  # type: ignore[comparison-overlap]


def test_list_json(tmp_path: Path, goalkeeper_home: Path, two_runs: tuple[RunState, RunState]) -> None:
    good, bad = two_runs
    r = gk("runs", "list", "--json", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0
    (rows,) = json_lines(r.stdout)
    by_id = {row["runId"]: row for row in rows}  # type: ignore[index]
    assert set(by_id) == {good.run_id, bad.run_id}
    assert by_id[good.run_id]["status"] == "reached" and by_id[good.run_id]["tick"] == 1
    assert by_id[bad.run_id]["status"] == "escalated" and by_id[bad.run_id]["specName"] == "bad"
    assert set(by_id[good.run_id]) == {"runId", "specName", "status", "tick", "created", "updated"}


def test_list_table(tmp_path: Path, goalkeeper_home: Path, two_runs: tuple[RunState, RunState]) -> None:
    r = gk("runs", "list", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0
    for st in two_runs:
        assert st.run_id in r.stdout and st.status in r.stdout


def test_list_flags_a_corrupt_run_without_failing(tmp_path: Path, goalkeeper_home: Path,
                                                  two_runs: tuple[RunState, RunState]) -> None:
    good, _ = two_runs
    (goalkeeper_home / "runs" / good.run_id / "state.json").write_text("{torn")
    r = gk("runs", "list", "--json", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0
    (rows,) = json_lines(r.stdout)
    row = next(x for x in rows if x["runId"] == good.run_id)  # type: ignore[index]
    assert row["status"] == "corrupt" and "state.json" in row["error"]


def test_list_survives_a_binary_state_file(tmp_path: Path, goalkeeper_home: Path,
                                           two_runs: tuple[RunState, RunState]) -> None:
    good, _ = two_runs
    (goalkeeper_home / "runs" / good.run_id / "state.json").write_bytes(b"\xff\xfe\x00")
    r = gk("runs", "list", "--json", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0


def test_show_json(tmp_path: Path, goalkeeper_home: Path, two_runs: tuple[RunState, RunState]) -> None:
    _, bad = two_runs
    r = gk("runs", "show", bad.run_id, "--json", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0
    (data,) = json_lines(r.stdout)
    assert data["runId"] == bad.run_id and data["status"] == "escalated"
    assert [(t["action"], t["outcome"]) for t in data["history"]] == [("go", "failed"), ("go", "failed")]
    assert data["replans"][0]["corrections"] == [{"fact": "ready", "believed": True, "observed": False}]
    assert data["escalation"]["reason"] == "no_admissible_action"
    assert "events" not in data


def test_show_json_with_events(tmp_path: Path, goalkeeper_home: Path,
                               two_runs: tuple[RunState, RunState]) -> None:
    good, _ = two_runs
    r = gk("runs", "show", good.run_id, "--json", "--events", home=goalkeeper_home, cwd=tmp_path)
    (data,) = json_lines(r.stdout)
    kinds = [e["event"] for e in data["events"]]
    assert kinds[0] == "run.started" and kinds[-1] == "run.reached" and "tick.started" in kinds


def test_show_human(tmp_path: Path, goalkeeper_home: Path, two_runs: tuple[RunState, RunState]) -> None:
    _, bad = two_runs
    r = gk("runs", "show", bad.run_id, home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 0
    out = r.stdout
    assert bad.run_id in out and "escalated" in out
    assert "ready: true→false" in out
    assert "no_admissible_action" in out and "triage" in out


def test_show_unknown_run_is_a_clear_error(tmp_path: Path, goalkeeper_home: Path) -> None:
    r = gk("runs", "show", "run-nope", home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 1
    assert "no run 'run-nope'" in r.stderr and "goalkeeper runs list" in r.stderr


def test_show_corrupt_run_names_the_file(tmp_path: Path, goalkeeper_home: Path,
                                         two_runs: tuple[RunState, RunState]) -> None:
    good, _ = two_runs
    path = goalkeeper_home / "runs" / good.run_id / "state.json"
    path.write_text("[]")
    r = gk("runs", "show", good.run_id, home=goalkeeper_home, cwd=tmp_path)
    assert r.returncode == 1 and str(path) in r.stderr
    assert path.read_text() == "[]"


def test_show_reports_what_the_log_says_when_a_crash_left_the_state_behind(
        tmp_path: Path, goalkeeper_home: Path, two_runs: tuple[RunState, RunState]) -> None:
    good, _ = two_runs
    path = goalkeeper_home / "runs" / good.run_id / "state.json"
    state = json.loads(path.read_text())
    state.update(status="running", seq=state["seq"] - 1)  # killed between run.reached and its state
    path.write_text(json.dumps(state))
    r = gk("runs", "show", good.run_id, "--json", home=goalkeeper_home, cwd=tmp_path)
    (data,) = json_lines(r.stdout)
    assert data["status"] == "reached" and data["seq"] == state["seq"] + 1
    assert json.loads(path.read_text())["status"] == "running"  # showing repairs nothing
