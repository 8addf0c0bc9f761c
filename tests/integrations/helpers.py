"""A small real project for host-maker goals: one bug, one test, pytest configured."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

APP_BUG = "def add(a, b):\n    return a - b\n"
APP_FIX = "def add(a, b):\n    return a + b\n"
TESTS = "from app import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n"
PYTEST = f"{sys.executable} -m pytest -q"


def project(root: Path, name: str = "ws") -> Path:
    ws = root / name
    (ws / "tests").mkdir(parents=True)
    (ws / "app.py").write_text(APP_BUG)
    (ws / "tests" / "test_app.py").write_text(TESTS)
    (ws / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    return ws


def cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"NO_COLOR": "1", "COLUMNS": "200", **extra})
    env.pop("FORCE_COLOR", None)
    return env


def gk(*args: str, cwd: Path, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real ``goalkeeper`` CLI in a subprocess (state home and keys from the test's environment)."""
    return subprocess.run([sys.executable, "-m", "goalkeeper", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, env=cli_env(), timeout=timeout)


def hook_input(event: str, cwd: Path, session: str | None = "sess-1", **extra: Any) -> str:
    """Claude Code's hook JSON for ``event`` (Stop, SessionStart, SessionEnd)."""
    data: dict[str, Any] = {"session_id": session, "transcript_path": str(cwd / "transcript.jsonl"),
                            "cwd": str(cwd), "permission_mode": "default", "hook_event_name": event}
    if event == "Stop":
        data.setdefault("stop_hook_active", False)
    if event == "SessionStart":
        data.setdefault("source", "startup")
    if event == "SessionEnd":
        data.setdefault("reason", "prompt_input_exit")
    data.update(extra)
    return json.dumps(data)


def new_host_goal(ws: Path, *extra: str, session: str | None = "sess-1") -> str:
    args = ["goal", "new", "make the tests pass", "--maker-type", "host", "--until", PYTEST,
            "--workspace", str(ws), *extra]
    if session:
        args += ["--session", session]
    res = gk(*args, cwd=ws)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()
