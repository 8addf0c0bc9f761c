"""Fixtures for the convergence tests: isolated state dir, real git repos, the example project."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from .helpers import copy_example, git


@pytest.fixture(autouse=True)
def goalkeeper_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "gk-home"
    monkeypatch.setenv("GOALKEEPER_HOME", str(home))
    return home


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Path]:
    """A real git repo with ``files`` committed on ``main``."""

    def _make(files: dict[str, str], name: str = "ws", commit: bool = True) -> Path:
        ws = tmp_path / name
        for rel, text in files.items():
            (ws / rel).parent.mkdir(parents=True, exist_ok=True)
            (ws / rel).write_text(text, encoding="utf-8")
        ws.mkdir(exist_ok=True)
        git(ws, "init", "-q")
        if commit:
            git(ws, "add", "-A")
            git(ws, "commit", "-q", "-m", "init")
        return ws

    return _make


@pytest.fixture
def example_project(tmp_path: Path) -> Path:
    return copy_example(tmp_path / "project")
