"""``goal delete`` and ``goal prune``: everything of the goal goes, a signed tombstone stays, the
workspace is untouched; a script must say --yes; a running goal is never deleted."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from goalkeeper.cli._event_schema import events_json_schema
from goalkeeper.convergence.edit import tombstone_of
from goalkeeper.store import goals as gstore
from goalkeeper.store.atomic import read_jsonl
from tests.cli.test_goal_view import _new_goal

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_delete_removes_the_goal_and_keeps_a_tombstone(run_cli: Run, tmp_path: Path,
                                                        goalkeeper_home: Path) -> None:
    gid, ws = _new_goal(run_cli, tmp_path)
    assert run_cli("goal", "run", gid).returncode == 0
    goals = goalkeeper_home / "goals"
    assert (goals / f"{gid}.json").exists() and (goals / f"{gid}.logs").is_dir()

    dry = run_cli("goal", "delete", gid, "--dry-run", "--json")
    assert dry.returncode == 0 and json.loads(dry.stdout)["dryRun"] is True
    assert (goals / f"{gid}.json").exists()
    scripted = run_cli("goal", "delete", gid)  # no terminal, no --yes: refuse, change nothing
    assert scripted.returncode == 2 and "--yes" in scripted.stderr and (goals / f"{gid}.json").exists()

    r = run_cli("goal", "delete", gid, "--yes")
    assert r.returncode == 0, r.stderr
    left = [p.name for p in goals.iterdir() if p.name.startswith(gid)]
    assert left == [] and (ws / "done.txt").exists()  # the workspace is the user's
    stone = tombstone_of(gid)
    assert stone is not None and stone["state"] == "converged" and stone["iterations"] == 2
    import jsonschema

    for rec in read_jsonl(goals / "tombstones.jsonl", root=goalkeeper_home):
        jsonschema.validate(rec, events_json_schema())
    again = run_cli("goal", "delete", gid, "--yes")
    assert again.returncode == 1 and "already deleted" in again.stderr
    assert json.loads(run_cli("goal", "list", "--json").stdout) == []


def test_a_running_or_damaged_goal_is_not_deleted(run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    lock = gstore.goal_lock(gid)
    lock.acquire()
    try:
        r = run_cli("goal", "delete", gid, "--yes")
    finally:
        lock.release()
    assert r.returncode == 1 and "is running" in r.stderr
    (goalkeeper_home / "goals" / f"{gid}.json").write_text("{not json")
    damaged = run_cli("goal", "delete", gid, "--yes")
    assert damaged.returncode == 1 and "--force" in damaged.stderr and "Traceback" not in damaged.stderr
    assert run_cli("goal", "delete", gid, "--yes", "--force").returncode == 0
    assert run_cli("goal", "delete", "goal-nothere", "--yes").returncode == 1


def test_prune_deletes_only_old_goals_in_the_chosen_states(run_cli: Run, tmp_path: Path) -> None:
    old, _ = _new_goal(run_cli, tmp_path / "a")
    assert run_cli("goal", "run", old).returncode == 0
    fresh, _ = _new_goal(run_cli, tmp_path / "b")  # active: not a default prune state
    none = json.loads(run_cli("goal", "prune", "--older-than", "30d", "--dry-run", "--json").stdout)
    assert none["wouldDelete"] == []  # nothing is a month old
    dry = run_cli("goal", "prune", "--older-than", "1ms", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    assert [x["goalId"] for x in json.loads(dry.stdout)["wouldDelete"]] == [old]
    assert run_cli("goal", "prune", "--older-than", "1ms").returncode == 2  # a script says --yes
    r = run_cli("goal", "prune", "--older-than", "1ms", "--yes", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["deleted"] == [old]
    assert [x["goalId"] for x in json.loads(run_cli("goal", "list", "--json").stdout)] == [fresh]
    both = run_cli("goal", "prune", "--older-than", "1ms", "--state", "active", "--yes", "--json")
    assert json.loads(both.stdout)["deleted"] == [fresh]
    bad = run_cli("goal", "prune", "--older-than", "soon")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
