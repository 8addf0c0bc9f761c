"""The toolchain fingerprint: what the checks execute and read outside the workspace."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from goalkeeper.convergence.toolchain import (
    changed_paths,
    fingerprint,
    interpreter_info,
    user_configs,
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    return h


def test_user_level_tool_config_is_fingerprinted_present_or_missing(home: Path) -> None:
    before = fingerprint([], [sys.executable])
    assert str(home / ".config" / "git" / "ignore") in before.configs
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".config" / "git" / "ignore").write_text("shop/pricing.py\n")  # ruff would skip it
    (home / ".config" / "ruff").mkdir(parents=True)
    (home / ".config" / "ruff" / "ruff.toml").write_text("exclude = ['shop']\n")
    changed = changed_paths(before, before.refresh())
    assert str(home / ".config" / "git" / "ignore") in changed
    assert str(home / ".config" / "ruff" / "ruff.toml") in changed


def test_a_global_excludes_file_named_in_git_config_is_included(home: Path, tmp_path: Path) -> None:
    target = tmp_path / "my-ignores"
    subprocess.run(["git", "config", "--global", "core.excludesFile", str(target)], check=True,
                   env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert str(target) in user_configs({"HOME": str(home), "PATH": "/usr/bin:/bin"})


def test_the_user_site_is_watched_even_before_it_exists(home: Path) -> None:
    info = interpreter_info(sys.executable)
    assert info is not None and isinstance(info["user"], str)
    user = Path(str(info["user"]))
    assert user.is_relative_to(home)  # the user site of the HOME the checks run with
    before = fingerprint([], [sys.executable])
    assert str(user) in before.configs  # missing now: recorded as missing
    user.mkdir(parents=True)
    (user / "fix.pth").write_text("import os\n")
    assert str(user) in changed_paths(before, before.refresh())


def test_every_folder_on_the_interpreters_real_path_is_a_root() -> None:
    info = interpreter_info(sys.executable)
    assert info is not None
    fp = fingerprint([], [sys.executable])
    site = [p for p in info["path"] if isinstance(p, str) and p.endswith(("site-packages", "dist-packages"))
            and Path(p).is_dir()]
    assert site and all(p in fp.roots for p in site)


def test_the_folders_above_the_workspace_are_part_of_the_fingerprint(tmp_path: Path) -> None:
    from goalkeeper.convergence.toolchain import ancestor_configs, fingerprint

    ws = tmp_path / "ws"
    ws.mkdir()
    names = ancestor_configs(str(ws))
    assert str(tmp_path / ".ignore") in names and str(tmp_path / ".git" / "info" / "exclude") in names
    assert not any(n.startswith(str(ws) + "/") for n in names)
    before = fingerprint([], [], {}, exclude=str(ws))
    (tmp_path / ".ignore").write_text("/ws/shop/pricing.py\n")
    assert before.refresh().digest != before.digest


def test_a_venvs_pyvenv_cfg_is_part_of_the_fingerprint(tmp_path: Path) -> None:
    from goalkeeper.convergence.toolchain import fingerprint

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    before = fingerprint([], [str(venv / "bin" / "python")], {}, exclude=str(tmp_path / "ws"))
    cfg = venv / "pyvenv.cfg"
    cfg.write_text(cfg.read_text().replace("home = ", "home = /tmp/elsewhere"))
    assert before.refresh().digest != before.digest


def test_a_check_resolves_tools_only_from_the_baselines_environments(tmp_path: Path) -> None:
    from goalkeeper.convergence.toolchain import resolve_command

    ws = tmp_path / "ws"
    (ws / "venv" / "bin").mkdir(parents=True)
    fake = ws / "venv" / "bin" / "pytest"
    fake.write_text("#!/bin/sh\necho '4 passed'\n")
    fake.chmod(0o755)
    env = {"PATH": str(tmp_path / "empty")}
    assert resolve_command(["pytest"], ws, env, sys.executable).executable == str(fake)  # the baseline's view
    pinned = resolve_command(["pytest"], ws, env, sys.executable, env_dirs=())
    assert pinned.executable == sys.executable and pinned.tool == "pytest"
