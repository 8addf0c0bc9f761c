"""`goalkeeper plan` end to end: table, --json, searches, exit codes, clean errors."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteState = Callable[..., Path]

STATE = {"image_built": False, "deployed": False, "lcp_ms": 3100.5}


def no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr
    assert "Traceback" not in r.stdout


@pytest.fixture
def web(specs_dir: Path) -> Path:
    return specs_dir / "web.yaml"


def plan_json(run_cli: Run, *args: Any) -> tuple[int, dict[str, Any]]:
    r = run_cli("plan", *args, "--json")
    no_traceback(r)
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1, r.stdout  # one JSON object
    return r.returncode, json.loads(lines[0])


@pytest.mark.parametrize("search", ["astar", "regression", "greedy"])
def test_json_found(run_cli: Run, web: Path, write_state: WriteState, search: str) -> None:
    code, out = plan_json(run_cli, web, "--state", write_state(STATE), "--search", search)
    assert code == 0
    assert {"status", "plan", "cost", "expanded", "seconds", "unreachable"} <= set(out)
    assert out["status"] == "found"
    assert sorted(out["plan"]) == ["build", "deploy", "optimize"]
    assert out["plan"].index("build") < out["plan"].index("deploy") < out["plan"].index("optimize")
    assert out["cost"] == 6
    assert out["unreachable"] == []
    assert isinstance(out["expanded"], int) and isinstance(out["seconds"], float | int)


def test_table_output(run_cli: Run, web: Path, write_state: WriteState) -> None:
    r = run_cli("plan", web, "--state", write_state(STATE))
    no_traceback(r)
    assert r.returncode == 0
    rows = [ln for ln in r.stdout.splitlines() if "│" in ln]
    names = [cells[2].strip() for cells in (ln.split("│") for ln in rows) if len(cells) > 2]
    assert names == ["build", "deploy", "optimize"]
    assert "cost 6" in r.stdout


def test_goal_already_holds(run_cli: Run, web: Path, write_state: WriteState) -> None:
    state = write_state({"image_built": True, "deployed": True, "lcp_ms": 900})
    r = run_cli("plan", web, "--state", state)
    assert r.returncode == 0
    assert "nothing to do" in r.stdout
    code, out = plan_json(run_cli, web, "--state", state)
    assert (code, out["status"], out["plan"], out["cost"]) == (0, "found", [], 0)


def test_unreachable_exit_3_and_explained(run_cli: Run, web: Path, write_state: WriteState) -> None:
    state = write_state({**STATE, "env": "dev"})  # deploy needs env in [staging, prod]
    r = run_cli("plan", web, "--state", state)
    no_traceback(r)
    assert r.returncode == 3  # no plan exists: not an error of the input
    assert "unreachable" in r.stdout
    assert "goal deployed == true (now false)" in r.stdout
    assert "deploy needs env in ['staging', 'prod'], which can never hold" in r.stdout
    code, out = plan_json(run_cli, web, "--state", state)
    assert code == 3
    assert out["status"] == "unreachable" and out["plan"] == [] and out["cost"] is None
    facts = [u["fact"] for u in out["unreachable"]]
    assert "deployed" in facts
    dep = out["unreachable"][facts.index("deployed")]
    assert dep["setters"][0]["action"] == "deploy"
    assert dep["setters"][0]["blocked"][0]["fact"] == "env"


def test_exclude(run_cli: Run, web: Path, write_state: WriteState) -> None:
    code, out = plan_json(run_cli, web, "--state", write_state(STATE), "--exclude", "optimize")
    assert code == 3
    assert out["status"] == "unreachable"
    (gap,) = out["unreachable"]
    assert gap["fact"] == "lcp_ms"
    assert gap["setters"] == [{"action": "optimize", "blocked": [], "excluded": True}]
    r = run_cli("plan", web, "--state", write_state(STATE), "--exclude", "optimize")
    assert "optimize [excluded]" in r.stdout


def test_without_state_uses_initial_values(run_cli: Run, write_spec: Callable[..., Path]) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal: {n: {">=": 2}}
        facts:
          n: {type: int, initial: 0}
        actions:
          bump: {pre: {n: 0}, effects: {n: 2}}
        """
    )
    code, out = plan_json(run_cli, p)
    assert (code, out["plan"]) == (0, ["bump"])


def test_without_state_missing_values_is_clear_error(run_cli: Run, web: Path) -> None:
    r = run_cli("plan", web)
    no_traceback(r)
    assert r.returncode == 1
    assert "image_built: missing" in r.stderr


@pytest.mark.parametrize(
    ("state", "fragment"),
    [
        ({**STATE, "deployed": "yes"}, "deployed: expected true or false, got str 'yes'"),
        ({**STATE, "deployd": True}, "deployd: unknown fact (did you mean deployed?)"),
        ({"deployed": False}, "image_built: missing"),
        ("{not json", "invalid JSON"),
        ("[1, 2]", "a state is a JSON object"),
    ],
    ids=["wrong-type", "unknown-fact", "missing", "bad-json", "not-object"],
)
def test_bad_state_file(run_cli: Run, web: Path, write_state: WriteState, state: Any, fragment: str) -> None:
    path = write_state(state)
    r = run_cli("plan", web, "--state", path)
    no_traceback(r)
    assert r.returncode == 1
    assert fragment in r.stderr
    assert str(path) in r.stderr


def test_bad_state_file_with_json_flag(run_cli: Run, web: Path, write_state: WriteState) -> None:
    path = write_state({**STATE, "lcp_ms": "slow"})
    r = run_cli("plan", web, "--state", path, "--json")
    no_traceback(r)
    assert r.returncode == 1
    assert f"{path}: lcp_ms: expected a number, got str 'slow'" in r.stderr


def test_missing_state_file(run_cli: Run, web: Path, tmp_path: Path) -> None:
    r = run_cli("plan", web, "--state", tmp_path / "none.json")
    no_traceback(r)
    assert r.returncode == 1
    assert "file not found" in r.stderr


def test_invalid_spec(run_cli: Run, specs_dir: Path, write_state: WriteState) -> None:
    r = run_cli("plan", specs_dir / "typo.yaml", "--state", write_state({}))
    no_traceback(r)
    assert r.returncode == 1
    assert "typo.yaml:12: actions.deploy.pre.image_bilt: unknown fact" in r.stderr


def test_unknown_search_is_clear_error(run_cli: Run, web: Path, write_state: WriteState) -> None:
    r = run_cli("plan", web, "--state", write_state(STATE), "--search", "dfs")
    no_traceback(r)
    assert r.returncode in (1, 2)
    assert "dfs" in r.stderr and "astar" in r.stderr


def test_unknown_exclude_is_clear_error(run_cli: Run, web: Path, write_state: WriteState) -> None:
    r = run_cli("plan", web, "--state", write_state(STATE), "--exclude", "optimise")
    no_traceback(r)
    assert r.returncode == 1
    assert "cannot exclude unknown action 'optimise'" in r.stderr


@pytest.mark.parametrize(
    "args", [("plan",), ("plan", "x.yaml", "--nope"), ("plan", "x.yaml", "--max-seconds", "soon")]
)
def test_usage_errors_exit_2(run_cli: Run, args: tuple[str, ...]) -> None:
    r = run_cli(*args)
    no_traceback(r)
    assert r.returncode == 2


def test_limit_exit_4(run_cli: Run, web: Path, write_state: WriteState) -> None:
    code, out = plan_json(run_cli, web, "--state", write_state(STATE), "--max-seconds", "0")
    assert code == 4  # no plan yet: the search stopped before it could decide
    assert out["status"] == "limit"
    assert out["plan"] == [] and out["cost"] is None and out["unreachable"] == []
