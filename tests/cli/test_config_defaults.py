"""Defaults for ``goal new`` from ``$GOALKEEPER_HOME/config.toml`` and ``[tool.goalkeeper.goal]`` in the
workspace's pyproject.toml: precedence, merging, and bad files named with their line and the fix."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.config import goal_defaults

Run = Callable[..., subprocess.CompletedProcess[str]]


def _goal(run_cli: Run, ws: Path, *extra: str) -> dict[str, Any]:
    r = run_cli("goal", "new", "Defaults", "--until", "true", "--maker", "true", "--workspace", str(ws),
                "--json", *extra)
    assert r.returncode == 0, r.stderr
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def test_precedence_flags_over_pyproject_over_home(run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    goalkeeper_home.mkdir(parents=True, exist_ok=True)
    (goalkeeper_home / "config.toml").write_text(
        '[goal]\nmax-dollars = 7\nmax-iterations = 9\nallow-edit = ["setup.cfg"]\n'
        'check-env = {A = "home", B = "home"}\n')
    ws = tmp_path / "ws"
    ws.mkdir()
    plain = _goal(run_cli, ws)
    assert plain["budget"]["maxDollars"] == 7 and plain["budget"]["maxIterations"] == 9
    assert plain["guards"]["allowEdit"] == ["setup.cfg"] and plain["conditionEnv"] == {"A": "home", "B": "home"}

    (ws / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.goalkeeper.goal]\nmax-dollars = 2.5\n'
                                       'allow-edit = ["pyproject.toml"]\ncheck-env = {B = "ws"}\n'
                                       'default-protect = false\n')
    layered = _goal(run_cli, ws)
    assert layered["budget"]["maxDollars"] == 2.5 and layered["budget"]["maxIterations"] == 9
    assert layered["guards"]["allowEdit"] == ["pyproject.toml"]  # a list replaces, it does not append
    assert layered["conditionEnv"] == {"A": "home", "B": "ws"}  # KEY=VALUE tables merge per key
    assert layered["guards"]["testPaths"] == []  # default-protect = false is --no-default-protect

    typed = _goal(run_cli, ws, "--max-dollars", "1", "--check-env", "B=flag")
    assert typed["budget"]["maxDollars"] == 1 and typed["conditionEnv"]["B"] == "flag"
    assert set(goal_defaults(ws)) == {"max-dollars", "max-iterations", "allow-edit", "check-env", "default-protect"}


@pytest.mark.parametrize(("text", "fragments"), [
    ("[goal]\nmax-dolars = 3\n", ["config.toml:2", "goal.max-dolars", "did you mean max-dollars?"]),
    ("[goal]\nmax-iterations = 0\n", ["config.toml:2", "goal.max-iterations", "at least 1"]),
    ("[goal]\nmax-duration = \"soon\"\n", ["config.toml:2", "cannot read duration 'soon'"]),
    ("[goal\nmax = 1\n", ["config.toml", "not valid TOML"]),
    ("[gaol]\nx = 1\n", ["config.toml", "unknown section"]),
    ("\xff\xfe[goal]\n", ["not UTF-8"]),
], ids=["typo", "zero", "duration", "toml", "section", "encoding"])
def test_a_bad_home_config_is_a_clear_error(run_cli: Run, tmp_path: Path, goalkeeper_home: Path, text: str,
                                            fragments: list[str]) -> None:
    goalkeeper_home.mkdir(parents=True, exist_ok=True)
    (goalkeeper_home / "config.toml").write_bytes(text.encode("latin-1"))
    ws = tmp_path / "ws"
    ws.mkdir()
    r = run_cli("goal", "new", "x", "--until", "true", "--maker", "true", "--workspace", str(ws))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    for f in fragments:
        assert f in r.stderr, (f, r.stderr)
    assert json.loads(run_cli("goal", "list", "--json").stdout) == []  # nothing was created


def test_a_bad_pyproject_section_names_its_key(run_cli: Run, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "pyproject.toml").write_text('[tool.goalkeeper.goal]\nsandbox = "docker"\n')
    r = run_cli("goal", "new", "x", "--until", "true", "--maker", "true", "--workspace", str(ws))
    assert r.returncode == 1 and "pyproject.toml:2" in r.stderr and "tool.goalkeeper.goal.sandbox" in r.stderr


def test_goal_new_help_lists_the_default_protected_globs_and_the_config(run_cli: Run) -> None:
    from goalkeeper.convergence.protect import DEFAULT_TESTS, SEAL_NAMES

    r = run_cli("goal", "new", "--help")
    assert r.returncode == 0
    flat = " ".join(r.stdout.split())
    for glob in (*DEFAULT_TESTS, *sorted(SEAL_NAMES)):
        assert glob in flat, glob
    assert "--allow-edit GLOB" in flat and "config.toml" in flat and "goal edit ID" in flat
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "pyproject.toml" in readme and "--allow-edit" in readme and "goal edit" in readme
