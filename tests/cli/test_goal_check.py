"""Host-maker goals: the agent host edits, `goal check` runs one sealed iteration on what it left."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
APP_BUG = "def add(a, b):\n    return a - b\n"
APP_FIX = "def add(a, b):\n    return a + b\n"
TESTS = "from app import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n"


def _ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "app.py").write_text(APP_BUG)
    (ws / "tests" / "test_app.py").write_text(TESTS)
    (ws / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    return ws


def _new(run_cli: Run, ws: Path, *extra: str) -> str:
    res = run_cli("goal", "new", "make the tests pass", "--maker-type", "host",
                  "--until", f"{sys.executable} -m pytest -q", "--workspace", str(ws), *extra, cwd=ws)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_check_blocks_until_the_host_fixes_it(run_cli: Run, tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    gid = _new(run_cli, ws)
    first = run_cli("goal", "check", gid, "--json", cwd=ws)
    assert first.returncode == 4, first.stderr
    v = json.loads(first.stdout)
    assert v["state"] == "active" and v["iteration"] == 1
    assert any("test_add" in f for f in v["failing"]) and v["nextHint"]
    (ws / "app.py").write_text(APP_FIX)
    second = run_cli("goal", "check", gid, cwd=ws)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "converged" in second.stdout
    assert run_cli("goal", "run", gid, cwd=ws).returncode == 1  # goalkeeper never starts a host's maker


def test_a_host_that_edits_the_tests_is_rejected_and_the_test_restored(run_cli: Run, tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    gid = _new(run_cli, ws, "--max-iterations", "5")
    (ws / "tests" / "test_app.py").write_text("def test_add():\n    assert True\n")
    res = run_cli("goal", "check", gid, "--json", cwd=ws)
    assert res.returncode == 4
    v = json.loads(res.stdout)
    assert any("edited protected test file tests/test_app.py" in f for f in v["findings"])
    assert (ws / "tests" / "test_app.py").read_text() == TESTS
    (ws / "tests" / "test_app.py").write_text("def test_add():\n    assert True\n")
    again = run_cli("goal", "check", gid, "--json", cwd=ws)
    assert again.returncode == 3 and json.loads(again.stdout)["reason"] == "tampering"


@pytest.mark.deep  # a whole run: test_check_blocks_until_the_host_fixes_it keeps host goals in the suite
def test_the_budget_ends_a_host_goal(run_cli: Run, tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    gid = _new(run_cli, ws, "--max-iterations", "2")
    assert run_cli("goal", "check", gid, cwd=ws).returncode == 4
    (ws / "app.py").write_text("def add(a, b):\n    return a * b + 1\n")
    last = run_cli("goal", "check", gid, "--json", cwd=ws)
    assert last.returncode == 3 and json.loads(last.stdout)["reason"] == "budget_exhausted"
