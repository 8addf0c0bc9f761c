"""store.home: state is found like git finds .git, and created at the workspace root."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from goalkeeper.store import write_json_atomic
from goalkeeper.store.home import ensure_home, home, workspace_root


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOALKEEPER_HOME", raising=False)


def git_init(d: Path) -> None:
    subprocess.run(["git", "init", "-q", str(d)], check=True, capture_output=True)


def test_the_environment_variable_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".goalkeeper").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GOALKEEPER_HOME", str(tmp_path / "explicit"))
    assert home() == tmp_path / "explicit"


@pytest.mark.usefixtures("no_env")
def test_a_subdirectory_finds_the_state_above_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git_init(tmp_path)
    (tmp_path / ".goalkeeper").mkdir()
    deep = tmp_path / "src" / "pkg"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert home() == tmp_path / ".goalkeeper"


@pytest.mark.usefixtures("no_env")
def test_without_state_it_lives_at_the_git_top_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git_init(tmp_path)
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert workspace_root() == tmp_path
    assert home() == tmp_path / ".goalkeeper"


@pytest.mark.usefixtures("no_env")
def test_the_search_stops_at_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".goalkeeper").mkdir()  # state of some outer folder
    repo = tmp_path / "repo"
    repo.mkdir()
    git_init(repo)
    monkeypatch.chdir(repo)
    assert home() == repo / ".goalkeeper"


@pytest.mark.usefixtures("no_env")
def test_outside_git_it_is_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = tmp_path / "plain"
    d.mkdir()
    monkeypatch.chdir(d)
    if workspace_root() != d:
        pytest.skip("the temp folder is inside a git repository here")
    assert home() == d / ".goalkeeper"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a folder to another user")
@pytest.mark.usefixtures("no_env")
def test_someone_elses_state_folder_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    planted = tmp_path / ".goalkeeper"
    planted.mkdir()
    os.chown(planted, 65534, 65534)
    d = tmp_path / "work"
    d.mkdir()
    monkeypatch.chdir(d)
    if workspace_root() != d:
        pytest.skip("the temp folder is inside a git repository here")
    assert home() == d / ".goalkeeper"


@pytest.mark.usefixtures("no_env")
def test_a_new_home_is_excluded_from_git_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git_init(tmp_path)
    monkeypatch.chdir(tmp_path)
    write_json_atomic(home() / "goals" / "g.json", {"x": 1})
    exclude = (tmp_path / ".git" / "info" / "exclude").read_text()
    assert exclude.count("/.goalkeeper/") == 1
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tmp_path, capture_output=True, text=True)
    assert ".goalkeeper" not in status.stdout
    ensure_home(tmp_path / ".goalkeeper")  # exists: nothing added twice
    assert (tmp_path / ".git" / "info" / "exclude").read_text() == exclude
    assert (tmp_path / ".goalkeeper").stat().st_mode & 0o777 == 0o700


def test_a_home_outside_any_repository_touches_no_git(tmp_path: Path) -> None:
    ensure_home(tmp_path / "deep" / "home")
    assert (tmp_path / "deep" / "home").is_dir()
