"""Helpers shared by the convergence and goal/triage CLI tests (not fixtures: plain functions)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "fix-the-tests"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "init.defaultBranch=main"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def copy_example(dest: Path) -> Path:
    """A fresh git copy of examples/fix-the-tests/project (2 failing tests + 1 ruff error)."""
    shutil.copytree(EXAMPLE / "project", dest, ignore=shutil.ignore_patterns("__pycache__", ".*_cache"))
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "broken")
    return dest


def maker_argv(name: str, *args: str) -> list[str]:
    return [sys.executable, str(EXAMPLE / "makers" / name), *args]
