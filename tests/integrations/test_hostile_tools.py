"""Hostile arguments to the MCP tools, called as the server calls them (no SDK needed).

An MCP client is a model: it sends whatever JSON it likes, including strings no
shell could pass (a NUL byte) and values the CLI's flags would refuse. Each
tool must answer with the CLI's kind of message (the place and the fix), never
``internal error ... this is a bug``, and must refuse what ``goal new`` refuses
before anything is saved.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.integrations._errors import describe
from goalkeeper.integrations.tools import (
    build_tool,
    goal_list_tool,
    goal_new_tool,
    observe_tool,
    plan_tool,
    validate_tool,
)

SPECS = Path(__file__).parent.parent / "model" / "specs"


def _answer(fn: Callable[..., dict[str, Any]], **kwargs: Any) -> tuple[dict[str, Any] | None, str | None]:
    """What the server would send: the tool's dict, or its error in the CLI's words."""
    try:
        return fn(**kwargs), None
    except Exception as e:
        return None, describe(e)


def _no_goals() -> bool:
    return not goal_list_tool()["goals"]


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The server's working directory: a git project with the minimal spec."""
    d = tmp_path / "ws"
    d.mkdir()
    shutil.copy(SPECS / "minimal.yaml", d / "spec.yaml")
    subprocess.run(["git", "init", "-q"], cwd=d, check=True)
    monkeypatch.chdir(d)
    for key in ("GOALKEEPER_LLM_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
    return d


NUL_PATHS = [
    ("validate", validate_tool, {"spec": "a\x00b.yaml"}, "spec"),
    ("plan", plan_tool, {"spec": "a\x00b.yaml"}, "spec"),
    ("observe", observe_tool, {"spec": "a\x00b.yaml"}, "spec"),
    ("plan-state", plan_tool, {"spec": "spec.yaml", "state": "st\x00ate.json"}, "state"),
    ("build-out", build_tool, {"spec": "spec.yaml", "target": "code", "out_dir": "o\x00ut"}, "out"),
    ("goal_new-workspace", goal_new_tool, {"objective": "x", "until": "true", "workspace": "w\x00s"}, "workspace"),
]


@pytest.mark.parametrize(("fn", "kwargs", "where"), [c[1:] for c in NUL_PATHS], ids=[c[0] for c in NUL_PATHS])
def test_a_nul_byte_in_a_path_argument_is_named_not_an_internal_error(
        ws: Path, fn: Callable[..., dict[str, Any]], kwargs: dict[str, Any], where: str) -> None:
    # JSON carries "\u0000" in a string; os.open then raises ValueError, which describe() calls a bug
    data, err = _answer(fn, **kwargs)
    if data is not None:  # validate may answer "not valid" instead of failing
        assert data.get("valid") is False and data["issues"], data
        err = " ".join(i["message"] for i in data["issues"])
    assert err is not None
    assert not err.startswith("internal error"), err
    assert where in err, err
    assert _no_goals()


def test_goal_new_refuses_a_stopping_condition_that_cannot_start_as_the_cli_does(ws: Path) -> None:
    cli = subprocess.run([sys.executable, "-m", "goalkeeper", "goal", "new", "x", "--maker-type", "host",
                          "--until", "no-such-program-gk-hostile"], capture_output=True, text=True, cwd=ws,
                         timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert cli.returncode == 1 and "cannot be started" in cli.stderr  # the CLI's preflight refuses it
    data, err = _answer(goal_new_tool, objective="x", until="no-such-program-gk-hostile")
    assert data is None, f"goal_new saved a goal the CLI refuses: {data and data['goalId']}"
    assert err is not None and "no-such-program-gk-hostile" in err
    assert _no_goals()


def test_goal_new_refuses_an_oracle_without_a_model_or_key(ws: Path) -> None:
    # accepted today: every later goal_check then fails after running the checks, forever
    data, err = _answer(goal_new_tool, objective="x", until="true", oracle="openai:")
    assert data is None and err is not None and "oracle" in err, (data, err)
    assert _no_goals()


@pytest.mark.parametrize("key", ["", "A=B", "A\x00B"], ids=["empty", "equals", "nul"])
def test_goal_new_refuses_an_environment_name_no_process_can_have(ws: Path, key: str) -> None:
    # accepted today; the first check then escalates `unrunnable`, or (empty name) the guard process
    # dies and a Python traceback lands in the check log as if the maker's work had failed
    data, err = _answer(goal_new_tool, objective="x", until="true", check_env={key: "1"})
    assert data is None, f"check_env {key!r} was saved in {data and data['goalId']}"
    assert err is not None and "check_env" in err and not err.startswith("internal error"), err
    assert _no_goals()


def test_goal_new_refuses_a_nul_byte_in_a_check_value(ws: Path) -> None:
    data, err = _answer(goal_new_tool, objective="x", until="true", check_env={"A": "x\x00y"})
    assert data is None and err is not None and "check_env" in err, (data, err)
    assert _no_goals()


@pytest.mark.parametrize("threshold", [float("nan"), -5.0, float("inf")], ids=["nan", "negative", "inf"])
def test_goal_new_refuses_a_coverage_threshold_that_is_not_a_percent(ws: Path, threshold: float) -> None:
    # nan: every comparison is false, so the goal can never converge and nothing says why
    data, err = _answer(goal_new_tool, objective="x", until="true", types=["coverage_threshold"],
                        threshold=threshold)
    assert data is None and err is not None and "threshold" in err, (data, err)
    assert _no_goals()


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux /proc")
def test_a_workspace_file_that_cannot_be_read_is_named_and_no_half_made_goal_is_left(ws: Path) -> None:
    # /proc/self/mem opens but its first read is EIO: the baseline walk dies with a bare
    # "Input/output error" after the goal was already saved as active
    data, err = _answer(goal_new_tool, objective="x", until="true", workspace="/proc/self")
    if data is None:
        assert err is not None and "/proc/" in err and err != "Input/output error", err
        assert _no_goals(), "a refused goal_new left a goal behind"
    else:  # or an unreadable file is just a file the seal cannot hash, and the goal works
        assert data["state"] == "active"


def test_goal_new_refuses_more_stopping_conditions_than_a_goal_can_run(ws: Path) -> None:
    data, err = _answer(goal_new_tool, objective="x", until=["true"] * 101)
    assert data is None and err is not None and "at most 100" in err, (data, err)
    assert _no_goals()
