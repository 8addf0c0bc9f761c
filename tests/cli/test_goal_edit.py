"""``goal edit``: protected globs, allow-edit, budgets and the maker of an existing goal, each change
one signed ``goal.edited`` event; refused (clearly) for a running, converged or tampering-prone edit."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from goalkeeper.convergence.persist import audited_goal
from goalkeeper.store import goals as gstore
from goalkeeper.store.atomic import read_jsonl
from tests.cli.test_goal_view import _new_goal

Run = Callable[..., subprocess.CompletedProcess[str]]


def _events(home: Path, gid: str) -> list[dict[str, object]]:
    return list(read_jsonl(home / "goals" / f"{gid}.events.jsonl", root=home))


def test_edit_guards_and_budget_is_a_signed_event(run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    r = run_cli("goal", "edit", gid, "--allow-edit", "pyproject.toml", "--protect", "data/*",
                "--max-dollars", "3", "--max-iterations", "none", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    keys = {c["key"] for c in out["changes"]}
    assert keys == {"guards.allowEdit", "guards.protectedPaths", "budget.maxDollars", "budget.maxIterations"}
    goal = json.loads(run_cli("goal", "show", gid, "--json").stdout)
    assert goal["guards"]["allowEdit"] == ["pyproject.toml"] and goal["guards"]["protectedPaths"] == ["data/*"]
    assert goal["budget"]["maxDollars"] == 3 and goal["budget"]["maxIterations"] is None
    edited = [e for e in _events(goalkeeper_home, gid) if e["event"] == "goal.edited"]
    assert len(edited) == 1 and edited[0]["mac"]
    audited, problems = audited_goal(gid)  # the file and the signed log agree
    assert not problems and audited.guards.allow_edit == ["pyproject.toml"]

    human = run_cli("goal", "edit", gid, "--disallow-edit", "pyproject.toml", "--dry-run")
    assert human.returncode == 0 and "would change 1 setting(s)" in human.stdout
    assert json.loads(run_cli("goal", "show", gid, "--json").stdout)["guards"]["allowEdit"] == ["pyproject.toml"]


def test_malformed_edits_are_clear_errors(run_cli: Run, tmp_path: Path) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    cases = [  # (args, exit code: 2 for a value click rejects, 1 for what the goal's rules refuse, words)
        (("--unprotect", "nope/*"), 1, "not one of the goal's --protect globs"),
        (("--max-iterations", "many"), 2, "'many' is not a number"),
        (("--max-dollars", "-1"), 1, "--max-dollars -1.0: Input should be greater than or equal to 0"),
        (("--maker-option", "noequals"), 2, "KEY=VALUE"),
        (("--maker-option", "permission_mode=acceptEdits"), 1, "takes no options"),
        (("--drop-until", "7"), 1, "names no stopping condition"),
        ((), 1, "changes nothing"),
    ]
    for args, code, fragment in cases:
        r = run_cli("goal", "edit", gid, *args)
        assert r.returncode == code, (args, r.stdout, r.stderr)
        assert fragment.lower() in r.stderr.lower() and "Traceback" not in r.stderr, (args, r.stderr)
    assert run_cli("goal", "edit", "goal-nothere", "--protect", "x").returncode == 1


def test_a_running_goal_is_not_edited(run_cli: Run, tmp_path: Path) -> None:
    gid, _ = _new_goal(run_cli, tmp_path)
    lock = gstore.goal_lock(gid)
    lock.acquire()  # what a running loop holds
    try:
        r = run_cli("goal", "edit", gid, "--protect", "x/*")
    finally:
        lock.release()
    assert r.returncode == 1 and "is running" in r.stderr and "goal pause" in r.stderr


def test_budget_edit_reopens_an_exhausted_goal_which_then_converges(run_cli: Run, tmp_path: Path) -> None:
    gid, ws = _new_goal(run_cli, tmp_path)
    assert run_cli("goal", "edit", gid, "--max-iterations", "1").returncode == 0
    first = run_cli("goal", "run", gid)
    assert first.returncode == 3, first.stdout + first.stderr
    assert json.loads(run_cli("goal", "status", gid, "--json").stdout)["escalation"]["reason"] == "budget_exhausted"

    # the maker already wrote half.txt: newly protecting it would reject the next iteration
    risky = run_cli("goal", "edit", gid, "--protect", "half.txt")
    assert risky.returncode == 1 and "half.txt" in risky.stderr and "--force" in risky.stderr

    r = run_cli("goal", "edit", gid, "--max-iterations", "3")
    assert r.returncode == 0 and "goal resume" in r.stdout
    assert json.loads(run_cli("goal", "status", gid, "--json").stdout)["state"] == "paused"
    assert run_cli("goal", "resume", gid).returncode == 0
    again = run_cli("goal", "run", gid)
    assert again.returncode == 0, again.stdout + again.stderr
    assert (ws / "done.txt").exists()
    # the item the escalation filed closed itself when the goal converged
    (item,) = json.loads(run_cli("triage", "list", "--json").stdout)
    assert item["sourceId"] == gid and item["status"] == "resolved" and item["resolvedBy"]["id"] == gid

    sealed = run_cli("goal", "edit", gid, "--max-dollars", "1")
    assert sealed.returncode == 1 and "--as-new" in sealed.stderr
    new = run_cli("goal", "edit", gid, "--as-new", "--max-dollars", "1", "--json")
    assert new.returncode == 0, new.stderr
    made = json.loads(new.stdout)
    assert made["replaced"] == gid and made["goalId"] != gid and made["state"] == "active"
    copy = json.loads(run_cli("goal", "show", made["goalId"], "--json").stdout)
    assert copy["budget"]["maxDollars"] == 1 and copy["source"]["editedFrom"] == gid
