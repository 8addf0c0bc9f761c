"""`goal report` and `runs report` through the real CLI: bad ids and bad paths are clear errors."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_an_unknown_goal_or_run_is_an_error_naming_it(run_cli: Run) -> None:
    for args in (("goal", "report", "goal-zzzzzzzz"), ("runs", "report", "run-zzzzzzzz"), ("goal", "report", "last")):
        r = run_cli(*args)
        assert r.returncode in (1, 2), (args, r.stderr)
        assert "Traceback" not in r.stderr and r.stderr.strip(), args


def test_report_to_an_unwritable_path_is_a_clear_error(run_cli: Run, tmp_path: Path) -> None:
    made = run_cli("goal", "new", "x", "--until", "true", "--maker", "true", "--workspace", str(tmp_path))
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    (tmp_path / "a-file").write_text("x")
    r = run_cli("goal", "report", gid, "-o", str(tmp_path / "a-file" / "r.html"))  # a file where a directory goes
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.strip()
    ok = run_cli("goal", "report", gid)
    assert ok.returncode == 0 and ok.stdout.startswith("<!DOCTYPE html>") and gid in ok.stdout
    assert "no iteration has run yet" in ok.stdout


def test_a_damaged_goal_or_run_file_is_a_clear_error(run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    made = run_cli("goal", "new", "x", "--until", "true", "--maker", "true", "--workspace", str(tmp_path))
    gid = made.stdout.strip()
    (goalkeeper_home / "goals" / f"{gid}.json").write_text('{"goalId": "' + gid + '", "objective": ')
    r = run_cli("goal", "report", gid)
    assert r.returncode == 1 and "Traceback" not in r.stderr and gid in r.stderr, r.stderr
    spec = tmp_path / "spec.yaml"
    spec.write_text("goalkeeper: 1\ngoal: {done: true}\nfacts:\n  done: {observe: {file: done.txt}}\nactions:\n"
                    "  make_it: {pre: {done: false}, effects: {done: true}, run: [touch, done.txt]}\n")
    assert run_cli("run", str(spec), cwd=tmp_path).returncode == 0
    state = next((goalkeeper_home / "runs").glob("*/state.json"))
    state.write_text("[1, 2")
    r = run_cli("runs", "report", "last", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.strip(), r.stderr
