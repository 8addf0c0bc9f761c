"""`goalkeeper validate` end to end: exit codes, messages with file:line, --json."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
WritePath = Callable[..., Path]


def no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr
    assert "Traceback" not in r.stdout


@pytest.mark.parametrize("name", ["web.yaml", "web.json", "minimal.yaml"])
def test_valid_spec_exits_0(run_cli: Run, specs_dir: Path, name: str) -> None:
    path = specs_dir / name
    r = run_cli("validate", path)
    no_traceback(r)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"valid {path}" in r.stdout
    assert "invalid" not in r.stdout


def test_invalid_spec_exits_1_with_file_line_path_message(run_cli: Run, specs_dir: Path) -> None:
    path = specs_dir / "typo.yaml"
    r = run_cli("validate", path)
    no_traceback(r)
    assert r.returncode == 1
    assert f"invalid {path}" in r.stderr
    assert f"{path}:12: actions.deploy.pre.image_bilt: unknown fact (did you mean image_built?)" in r.stderr
    assert r.stdout == ""


def test_all_problems_listed_at_once(run_cli: Run, write_spec: WritePath) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal:
          deployd: true
        facts:
          deployed: {}
          n: {type: int}
        actions:
          go:
            pre: {n: {"<": "x"}}
            effects: {deployed: 1}
        """
    )
    r = run_cli("validate", p)
    assert r.returncode == 1
    errors = [ln.strip() for ln in r.stderr.splitlines() if ln.strip().startswith("error:")]
    assert errors == [
        f"error: {p}:3: goal.deployd: unknown fact (did you mean deployed?)",
        f"error: {p}:9: actions.go.pre.n.<: expected an integer, got str 'x'",
        f"error: {p}:10: actions.go.effects.deployed: expected true or false, got int 1",
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("goalkeeper: 1\ngoal: {a: true\n", ":3: <root>: invalid YAML"),
        ("goalkeeper: 1\ngoal: make it fast\nfacts: {a: {}}\n", "the goal is prose"),
        ("goalkeeper: 1\ngoal: {a: true}\nfacts:\n  a: {}\n  a: {}\n", ":5: facts.a: duplicate key"),
        ("goalkeeper: 2\ngoal: {a: true}\nfacts: {a: {}}\n", ":1: goalkeeper: unsupported format version"),
        (
            "goalkeeper: 1\ngoal: {a: true}\nfacts:\n  a:\n    observe: {command: x, file: y}\n",
            ":5: facts.a.observe: a fact has ONE observer",
        ),
        (
            "goalkeeper: 1\ngoal: {a: true}\nfacts: {a: {}}\nactions:\n  x: {effects: {a: true}, cost: 0}\n",
            ":5: actions.x.cost: cost must be a positive number",
        ),
    ],
    ids=["yaml-syntax", "prose-goal", "duplicate", "version", "two-observers", "zero-cost"],
)
def test_invalid_specs(run_cli: Run, write_spec: WritePath, text: str, fragment: str) -> None:
    p = write_spec(text)
    r = run_cli("validate", p)
    no_traceback(r)
    assert r.returncode == 1
    assert fragment in r.stderr


def test_missing_file_is_invalid_not_usage(run_cli: Run, tmp_path: Path) -> None:
    r = run_cli("validate", tmp_path / "nope.yaml")
    no_traceback(r)
    assert r.returncode == 1
    assert "file not found" in r.stderr


def test_wrong_extension(run_cli: Run, tmp_path: Path) -> None:
    p = tmp_path / "spec.txt"
    p.write_text("goalkeeper: 1\n")
    r = run_cli("validate", p)
    assert r.returncode == 1
    assert "unsupported file type '.txt'" in r.stderr


@pytest.mark.parametrize(
    "args",
    [("validate",), ("validate", "--nope", "x.yaml"), ("validate", "a.yaml", "b.yaml"), ("valdiate", "x.yaml")],
)
def test_usage_errors_exit_2(run_cli: Run, args: tuple[str, ...]) -> None:
    r = run_cli(*args)
    no_traceback(r)
    assert r.returncode == 2
    assert "Usage:" in r.stderr


def test_json_valid(run_cli: Run, specs_dir: Path) -> None:
    path = specs_dir / "web.yaml"
    r = run_cli("validate", "--json", path)
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["valid"] is True
    assert out["spec"] == str(path)
    assert isinstance(out["issues"], list)
    for issue in out["issues"]:
        assert set(issue) == {"path", "line", "severity", "code", "message"}
        assert issue["severity"] == "warning"


def test_json_invalid(run_cli: Run, specs_dir: Path) -> None:
    path = specs_dir / "typo.yaml"
    r = run_cli("validate", "--json", path)
    no_traceback(r)
    assert r.returncode == 1
    out = json.loads(r.stdout)  # exactly one JSON object on stdout
    assert out["valid"] is False and out["spec"] == str(path)
    assert out["issues"] == [
        {
            "path": "actions.deploy.pre.image_bilt",
            "line": 12,
            "severity": "error",
            "code": "unknown-fact",
            "message": "unknown fact (did you mean image_built?)",
        }
    ]


def test_json_missing_file(run_cli: Run, tmp_path: Path) -> None:
    r = run_cli("validate", "--json", tmp_path / "none.yaml")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["valid"] is False
    assert out["issues"][0]["message"] == "file not found"


WARN_ONLY = """\
goalkeeper: 1
goal: {done: true}
facts:
  done: {observe: {file: "${GK_TEST_UNSET_DIR}/done"}}
actions:
  finish:
    pre: {done: false}
    effects: {done: true}
"""


def test_warnings_do_not_fail_unless_strict(run_cli: Run, write_spec: WritePath) -> None:
    p = write_spec(WARN_ONLY)
    r = run_cli("validate", p)
    assert r.returncode == 0, r.stdout
    assert f"{p}:4: facts.done.observe.file: ${{GK_TEST_UNSET_DIR}} is not set" in r.stdout
    strict = run_cli("validate", "--strict", "--json", p)
    assert strict.returncode == 1
    out = json.loads(strict.stdout)
    assert out["valid"] is False
    assert any(i["code"] == "unset-var" for i in out["issues"])


def test_lint_errors_go_to_stderr(run_cli: Run, write_spec: WritePath) -> None:
    p = write_spec(WARN_ONLY)
    r = run_cli("validate", "--strict", p)
    assert r.returncode == 1
    assert f"{p}:4: facts.done" in r.stderr


def test_a_fact_without_observer_fails_validate_as_it_fails_run(run_cli: Run, write_spec: WritePath) -> None:
    p = write_spec(WARN_ONLY.replace('{observe: {file: "${GK_TEST_UNSET_DIR}/done"}}', "{}"))
    r = run_cli("validate", p)
    assert r.returncode == 1
    assert f"{p}:4: facts.done: fact has no observer" in r.stderr
    ran = run_cli("run", p)
    assert ran.returncode == 1 and "fact has no observer" in ran.stderr
