"""Shared fixtures: an isolated GOALKEEPER_HOME, the real CLI as a subprocess, spec files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SPECS = Path(__file__).parent / "model" / "specs"


@pytest.fixture(autouse=True)
def goalkeeper_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own state directory; nothing touches ./.goalkeeper."""
    home = tmp_path / "gk-home"
    monkeypatch.setenv("GOALKEEPER_HOME", str(home))
    monkeypatch.setenv("GOALKEEPER_KEYS", str(tmp_path / "gk-keys"))  # the signing keys, outside the home
    return home


@pytest.fixture
def specs_dir() -> Path:
    return SPECS


@pytest.fixture
def write_spec(tmp_path: Path) -> Callable[..., Path]:
    """Write spec text (dedented) to ``tmp_path/name`` and return the path."""

    def _write(text: str, name: str = "spec.yaml") -> Path:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
        return p

    return _write


@pytest.fixture
def write_state(tmp_path: Path) -> Callable[..., Path]:
    """Write a state object as JSON (or raw text) and return the path."""

    def _write(data: Any, name: str = "state.json") -> Path:
        p = tmp_path / name
        p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return p

    return _write


@pytest.fixture
def run_cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the real ``goalkeeper`` console entry point in a subprocess."""

    def _run(*args: str | os.PathLike[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        env.setdefault("GOALKEEPER_HOME", str(tmp_path / "gk-home"))
        env["NO_COLOR"] = "1"
        env["COLUMNS"] = "200"
        env.pop("FORCE_COLOR", None)
        return subprocess.run(
            [sys.executable, "-m", "goalkeeper", *map(str, args)],
            capture_output=True,
            text=True,
            cwd=cwd or tmp_path,
            env=env,
            timeout=60,
        )

    return _run


# --- tiers -------------------------------------------------------------------------------
# The README's test command runs everything but the `deep` tier: long campaigns (the full
# red-team set, many-trial kill -9 runs, Temporal at scale and across a server restart).
# `.ci/run` runs the deep tier right after it: GOALKEEPER_DEEP=1 pytest -m deep.
DEEP = pytest.mark.deep


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "deep: a long campaign, run by .ci/run after the suite (GOALKEEPER_DEEP=1)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("GOALKEEPER_DEEP") or "deep" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="deep tier: .ci/run runs it (GOALKEEPER_DEEP=1 pytest -m deep)")
    for item in items:
        if item.get_closest_marker("deep") is not None:
            item.add_marker(skip)
