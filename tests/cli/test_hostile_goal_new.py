"""``goalkeeper goal new`` on hostile values from its flags and from ``[tool.goalkeeper.goal]``: refused before
anything is saved, with the place (flag, or file:line and key) and the fix; nothing half made is left."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..fuzz.helpers import Outcome, assert_clean_failure, invoke


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    d = tmp_path / "ws"
    d.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=d, check=True)
    return d


def _new(home: Path, ws: Path, *extra: str) -> Outcome:
    return invoke(home, "goal", "new", "x", "--maker-type", "host", "--until", "true", *extra, cwd=ws)


def _no_goals(home: Path) -> bool:
    goals = home / "goals"
    return not goals.exists() or not any(goals.glob("goal-*.json"))


@pytest.mark.parametrize("value", ["nan", "-5", "inf"])
def test_a_threshold_that_is_not_a_percent_is_refused(goalkeeper_home: Path, ws: Path, value: str) -> None:
    # click's FLOAT reads "nan"; a NaN threshold fails every comparison, so the goal can never converge
    o = _new(goalkeeper_home, ws, "--type", "coverage_threshold", "--threshold", value)
    assert_clean_failure(o, "threshold")
    assert _no_goals(goalkeeper_home)


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux /proc")
def test_a_workspace_file_that_cannot_be_read_names_the_file_and_leaves_no_goal(goalkeeper_home: Path,
                                                                                ws: Path) -> None:
    # the baseline walk reads /proc/<pid>/mem (EIO): today "error: Input/output error", and the goal
    # was already saved as active with no baseline
    o = _new(goalkeeper_home, ws, "--workspace", "/proc/self")
    if o.code == 0:
        return  # an unreadable file hashed as unreadable is fine too
    assert_clean_failure(o, "/proc/")
    assert _no_goals(goalkeeper_home), "a refused goal new left a goal behind"


def _pyproject(ws: Path, body: str) -> None:
    (ws / "pyproject.toml").write_text("[tool.goalkeeper.goal]\n" + body)


def test_a_pyproject_too_deep_for_toml_is_named(goalkeeper_home: Path, ws: Path) -> None:
    _pyproject(ws, "protect = " + "[" * 5000 + "]" * 5000 + "\n")  # tomllib raises RecursionError
    assert_clean_failure(_new(goalkeeper_home, ws), "pyproject.toml")
    assert _no_goals(goalkeeper_home)


@pytest.mark.parametrize("entry", ['"A=B" = "1"', 'A = "x\\u0000y"'], ids=["equals-in-name", "nul-in-value"])
def test_a_check_env_no_process_can_have_is_refused_at_its_line(goalkeeper_home: Path, ws: Path,
                                                                 entry: str) -> None:
    # accepted today; the first check escalates `unrunnable` (illegal environment variable name)
    _pyproject(ws, f"[tool.goalkeeper.goal.check-env]\n{entry}\n")
    assert_clean_failure(_new(goalkeeper_home, ws), "pyproject.toml", "check-env")
    assert _no_goals(goalkeeper_home)


@pytest.mark.parametrize(("body", "key"), [
    ('[tool.goalkeeper.goal.check-env]\n"" = "x"\n', "check-env"),
    ("maker = \"'unclosed\"\n", "maker"),
    ("max-dollars = nan\n", "max-dollars"),
], ids=["empty-env-name", "maker-unsplittable", "dollars-nan"])
def test_a_bad_value_from_pyproject_names_the_file_not_a_flag(goalkeeper_home: Path, ws: Path, body: str,
                                                               key: str) -> None:
    # today: "Invalid value for --check-env: '=x'", "Invalid value for --maker", "max_dollars: ...":
    # the user never typed that flag and is not told which file to fix
    _pyproject(ws, body)
    assert_clean_failure(_new(goalkeeper_home, ws), "pyproject.toml", key)
    assert _no_goals(goalkeeper_home)
