"""Red-team findings (final round): each test fails on the code it was written against."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., subprocess.CompletedProcess[str]]


def _ws(tmp_path: Path, pyproject: str | None = None) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    (ws / "test_a.py").write_text("def test_a():\n    assert True\n")
    if pyproject is not None:
        (ws / "pyproject.toml").write_text(pyproject)
    return ws


def _new(run_cli: Run, ws: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("goal", "new", "obj", "--until", "true", "--maker", "true", *args, cwd=ws)


def _home_text(home: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in home.rglob("*") if p.is_file())


def test_check_env_value_shaped_like_a_key_is_refused_not_silently_replaced(
        run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    # FOO's name is not credential-like, but its value is a GitHub token shape: the store masks it on
    # write, so the goal would keep FOO="[redacted]" and its checks would run with the wrong value.
    ws = _ws(tmp_path)
    r = _new(run_cli, ws, "--check-env", "FOO=ghp_abcdefghijklmnopqrstuvwxyz0123")
    stored = _home_text(goalkeeper_home)
    assert r.returncode != 0, ('accepted', '"FOO": "[redacted]"' in stored)
    assert "Traceback" not in r.stderr


def test_check_env_credential_in_a_url_value_never_reaches_disk(
        run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    ws = _ws(tmp_path)
    for kv in ("DATABASE_URL=postgres://user:longsecretvalue@db.example/app", "GITHUB_PAT=longsecretvalue"):
        r = _new(run_cli, ws, "--check-env", kv)
        assert "Traceback" not in r.stderr
    assert "longsecretvalue" not in _home_text(goalkeeper_home)


def test_pyproject_booleans_are_not_budget_numbers(run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    for key in ("max-dollars", "max-iterations", "no-progress"):
        sub = tmp_path / key
        sub.mkdir()
        ws = _ws(sub, f"[tool.goalkeeper.goal]\n{key} = true\n")
        r = _new(run_cli, ws, "--json")
        assert r.returncode == 1, (key, r.stdout[:300])
        assert f"tool.goalkeeper.goal.{key}" in r.stderr and "Traceback" not in r.stderr


def test_pyproject_huge_maker_timeout_error_names_the_file_and_key(run_cli: Run, tmp_path: Path) -> None:
    ws = _ws(tmp_path, "[tool.goalkeeper.goal]\nmaker-timeout = 1e308\n")
    r = _new(run_cli, ws)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "pyproject.toml" in r.stderr and "tool.goalkeeper.goal.maker-timeout" in r.stderr, r.stderr


def test_a_duration_longer_than_ten_years_is_refused_with_the_flag_or_key(run_cli: Run, tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    for flag in ("--maker-timeout", "--max-duration"):
        r = _new(run_cli, ws, flag, "99999999d")
        assert r.returncode == 1 and "Traceback" not in r.stderr and "ten years" in r.stderr, (flag, r.stderr)


def test_negative_zero_budget_is_not_stored_as_minus_zero(run_cli: Run, tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    r = _new(run_cli, ws, "--max-dollars", "-0", "--json")
    if r.returncode == 0:
        assert json.loads(r.stdout)["budget"]["maxDollars"] == 0 and '"maxDollars": -0.0' not in r.stdout
