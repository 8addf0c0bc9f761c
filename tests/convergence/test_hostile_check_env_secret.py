"""A secret handed to the checks with ``--check-env`` (or the MCP tool's ``check_env``) would be stored with
the goal, in plain text in its state files (the goal file, its signed event log, the seal file). It is refused
when the goal is made or edited, naming the variable and the way that works: export it, and the checks
inherit it, masked as ``[redacted]`` in every home file and in ``goal logs``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..fuzz.helpers import invoke

SECRET = "gkhostile-tok-5d1e9a7c3b"
ECHO = "sh -c 'echo token=$MY_API_TOKEN; exit 1'"


def _ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    return ws


def _leaks(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*")
                  if p.is_file() and not p.is_symlink() and SECRET.encode() in p.read_bytes())


def test_a_secret_check_env_value_is_refused_before_anything_is_written(
        goalkeeper_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_API_TOKEN", raising=False)
    ws = _ws(tmp_path)
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", ECHO,
               "--check-env", f"MY_API_TOKEN={SECRET}", cwd=ws)
    assert o.code == 1 and "MY_API_TOKEN" in o.text and "export MY_API_TOKEN" in o.text, o.text
    assert SECRET not in o.text and "Traceback" not in o.text
    assert _leaks(goalkeeper_home) == []
    # an ordinary variable is fine, and goal edit refuses a secret the same way
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", ECHO,
               "--check-env", "MODE=ci", cwd=ws)
    assert o.code == 0, o.text
    gid = o.out.strip()
    o = invoke(goalkeeper_home, "goal", "edit", gid, "--check-env", f"DEPLOY_PASSWORD={SECRET}")
    assert o.code == 1 and "DEPLOY_PASSWORD" in o.text, o.text
    assert _leaks(goalkeeper_home) == []


def test_an_exported_secret_reaches_the_checks_and_no_home_file(
        goalkeeper_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_API_TOKEN", SECRET)
    ws = _ws(tmp_path)
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", ECHO, cwd=ws)
    assert o.code == 0, o.text
    gid = o.out.strip()
    o = invoke(goalkeeper_home, "goal", "check", gid, cwd=ws)
    assert o.code == 4, o.text  # the check ran (and failed), so its output was saved
    logs = invoke(goalkeeper_home, "goal", "logs", gid)
    assert "token=[redacted]" in logs.out and SECRET not in logs.out, logs.out
    assert _leaks(goalkeeper_home) == []
