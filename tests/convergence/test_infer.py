"""convergence.infer: stopping conditions from the workspace's own tooling, on small real workspaces.

Detection is tested on files for every kind; the inferred command is then run
for real, sealed, where its tool is installed here (pytest, unittest, ruff,
npm, make, cargo), on a passing and on a failing workspace.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from goalkeeper.convergence.conditions import run_sealed
from goalkeeper.convergence.infer import Candidate, infer_conditions, wanted_kinds
from goalkeeper.errors import ConfigError

APP_OK = "def add(a, b):\n    return a + b\n"
APP_BUG = "def add(a, b):\n    return a - b\n"


def _all_usable(_: Candidate) -> str | None:
    return None


def _files(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def _commands(ws: Path, objective: str = "make the tests pass") -> list[str]:
    return [c.command for c in infer_conditions(ws, objective, _all_usable).chosen]


@pytest.mark.parametrize(("objective", "kinds"), [
    ("make all tests pass", ("tests",)),
    ("fix the bug in parse()", ("tests",)),
    ("keep ruff clean", ("lint",)),
    ("fix the lint warnings", ("lint",)),
    ("make the tests pass and keep ruff clean", ("tests", "lint")),
    ("fix the type errors mypy reports", ("types",)),
    ("raise coverage to 90%", ("tests", "coverage")),
    ("make it build", ("build",)),
    ("port it to typescript", ("tests",)),  # "typescript" is not a request for a type checker
])
def test_the_objective_names_the_kinds(objective: str, kinds: tuple[str, ...]) -> None:
    assert wanted_kinds(objective) == kinds


@pytest.mark.parametrize(("files", "expected"), [
    ({"pyproject.toml": "[tool.pytest.ini_options]\n"}, ["pytest -q"]),
    ({"pytest.ini": "[pytest]\n"}, ["pytest -q"]),
    ({".pytest.toml": "[pytest]\n"}, ["pytest -q"]),
    ({"setup.cfg": "[tool:pytest]\naddopts = -q\n"}, ["pytest -q"]),
    ({"tox.ini": "[pytest]\n"}, ["pytest -q"]),
    ({"conftest.py": ""}, ["pytest -q"]),
    ({"tests/test_x.py": "import pytest\n"}, ["pytest -q"]),
    ({"tests/test_x.py": "def test_x():\n    pass\n"}, ["pytest -q"]),
    ({"tests/test_x.py": "import unittest\n"}, ["python -m unittest discover -s tests"]),
    ({"tests/__init__.py": "", "tests/test_x.py": "import unittest\n"}, ["python -m unittest discover -s tests -t ."]),
    ({"test_x.py": "from unittest import TestCase\n"}, ["python -m unittest discover"]),
    ({"package.json": json.dumps({"scripts": {"test": "node test.js"}})}, ["npm test"]),
    ({"package.json": json.dumps({"scripts": {"test": "vitest"}}), "pnpm-lock.yaml": ""}, ["pnpm test"]),
    ({"package.json": json.dumps({"scripts": {"test": "jest"}}), "yarn.lock": ""}, ["yarn test"]),
    ({"package.json": json.dumps({"scripts": {"test": "x"}, "packageManager": "pnpm@9.0.0"})}, ["pnpm test"]),
    ({"Cargo.toml": "[package]\nname = 'x'\n"}, ["cargo test"]),
    ({"go.mod": "module x\n"}, ["go test ./..."]),
    ({"Makefile": "all:\n\ttrue\ntest: all\n\t./run-tests\n"}, ["make test"]),
    ({"Makefile": "check:\n\ttrue\n"}, ["make check"]),
    # a tool goalkeeper can seal wins over a make target that wraps it
    ({"Makefile": "test:\n\tpytest\n", "pyproject.toml": "[tool.pytest.ini_options]\n"}, ["pytest -q"]),
])
def test_test_commands_are_detected_from_files(tmp_path: Path, files: dict[str, str], expected: list[str]) -> None:
    assert _commands(_files(tmp_path, files)) == expected


def test_npms_placeholder_test_script_is_not_a_test(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"package.json": json.dumps(
        {"scripts": {"test": 'echo "Error: no test specified" && exit 1'}})})
    with pytest.raises(ConfigError, match="nothing in .* says how to check tests"):
        infer_conditions(ws, "make the tests pass", _all_usable)


@pytest.mark.parametrize(("files", "objective", "expected"), [
    ({"pyproject.toml": "[tool.ruff]\n", "a.py": ""}, "keep ruff clean", ["ruff check ."]),
    ({"ruff.toml": "", "a.py": ""}, "fix lint", ["ruff check ."]),
    ({".flake8": "[flake8]\n", "a.py": ""}, "fix the lint warnings", ["flake8"]),
    ({"a.py": ""}, "fix the lint warnings", ["ruff check ."]),
    ({"mypy.ini": "[mypy]\n", "a.py": ""}, "fix the type errors", ["mypy"]),
    ({"pyproject.toml": "[tool.mypy]\nstrict = true\n", "a.py": ""}, "fix typing", ["mypy ."]),
    ({"package.json": json.dumps({"scripts": {"lint": "eslint ."}})}, "fix lint", ["npm run lint"]),
    ({"eslint.config.js": "export default [];\n", "package.json": "{}"}, "fix lint", ["npx eslint ."]),
    ({"tsconfig.json": "{}", "package.json": "{}"}, "fix the type errors", ["npx tsc --noEmit"]),
    ({"Cargo.toml": ""}, "fix clippy lint", ["cargo clippy --all-targets -- -D warnings"]),
    ({"go.mod": "", ".golangci.yml": ""}, "fix lint", ["golangci-lint run"]),
    ({"Makefile": "lint:\n\truff .\n"}, "fix lint", ["make lint"]),
    ({"package.json": json.dumps({"scripts": {"build": "tsc"}})}, "make it build", ["npm run build"]),
])
def test_lint_types_and_build_commands(tmp_path: Path, files: dict[str, str], objective: str,
                                       expected: list[str]) -> None:
    assert _commands(_files(tmp_path, files), objective) == expected


def test_coverage_threshold_comes_from_config_or_the_objective(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"pyproject.toml": "[tool.pytest.ini_options]\n[tool.coverage.report]\nfail_under = 85\n"})
    inf = infer_conditions(ws, "raise coverage", _all_usable)
    assert [(c.command, c.type, c.threshold) for c in inf.chosen] == [
        ("pytest -q", "test_pass", None), ("coverage run -m pytest -q", "coverage_threshold", 85.0)]
    assert infer_conditions(ws, "coverage to 92.5%", _all_usable).chosen[1].threshold == 92.5
    rc = _files(tmp_path / "rc", {"conftest.py": "", ".coveragerc": "[report]\nfail_under = 70\n"})
    assert infer_conditions(rc, "coverage", _all_usable).chosen[1].threshold == 70.0
    none = _files(tmp_path / "none", {"conftest.py": ""})
    inf = infer_conditions(none, "raise coverage", _all_usable)
    assert [c.command for c in inf.chosen] == ["pytest -q"]
    assert any("no threshold" in line for line in inf.explain())


def test_a_missing_program_is_skipped_and_said(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"Cargo.toml": "", "Makefile": "test:\n\tcargo test\n"})

    def no_cargo(c: Candidate) -> str | None:
        return "cargo is not installed" if c.command.startswith("cargo") else None

    inf = infer_conditions(ws, "make the tests pass", no_cargo)
    assert [c.command for c in inf.chosen] == ["make test"]
    assert any("skipped 'cargo test'" in line and "cargo is not installed" in line for line in inf.explain())
    with pytest.raises(ConfigError, match="found 'cargo test'.*cargo is not installed"):
        infer_conditions(_files(tmp_path / "only", {"Cargo.toml": ""}), "fix tests", no_cargo)


def test_nothing_to_infer_is_a_clear_refusal(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("hello\n")
    with pytest.raises(ConfigError) as e:
        infer_conditions(tmp_path, "make the tests pass", _all_usable)
    text = str(e.value)
    assert "no --until given" in text and "--until 'pytest -q'" in text and "looked for" in text


def test_environments_and_caches_are_not_read(tmp_path: Path) -> None:
    ws = _files(tmp_path, {".venv/pyvenv.cfg": "", ".venv/lib/test_x.py": "import pytest\n",
                           "node_modules/x/test_y.py": "import pytest\n", "other/pyvenv.cfg": "",
                           "other/test_z.py": "import unittest\n"})
    with pytest.raises(ConfigError):
        infer_conditions(ws, "make the tests pass", _all_usable)


def test_the_goal_source_marks_what_was_inferred(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"conftest.py": "", "ruff.toml": ""})
    src = infer_conditions(ws, "tests and lint", _all_usable).source()
    assert src == {"wanted": ["tests", "lint"], "conditions": [
        {"kind": "tests", "command": "pytest -q", "type": "test_pass", "evidence": "conftest.py is a pytest conftest"},
        {"kind": "lint", "command": "ruff check .", "type": "lint_clean", "evidence": "ruff.toml configures ruff"}]}


# --- the inferred commands, run for real (sealed) ---------------------------------------------

def _judge(ws: Path, objective: str = "make the tests pass") -> list[tuple[str, bool]]:
    inf = infer_conditions(ws, objective)  # the real availability check
    run = run_sealed(inf.conditions(), ws.resolve())
    return [(r.command, r.passed) for r in run.results]


PY_TEST = "from app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
UT_TEST = ("import unittest\n\nfrom app import add\n\n\nclass T(unittest.TestCase):\n"
           "    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n")


def test_pytest_workspace_runs_for_real(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"app.py": APP_BUG, "tests/test_app.py": PY_TEST,
                           "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["."]\n'})
    assert _judge(ws) == [("pytest -q", False)]
    (ws / "app.py").write_text(APP_OK)
    assert _judge(ws) == [("pytest -q", True)]


def test_unittest_workspace_runs_for_real(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"app.py": APP_BUG, "tests/test_app.py": UT_TEST})
    assert _judge(ws) == [("python -m unittest discover -s tests", False)]
    (ws / "app.py").write_text(APP_OK)
    assert _judge(ws) == [("python -m unittest discover -s tests", True)]


def test_ruff_workspace_runs_for_real(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"app.py": "import os\n" + APP_OK, "pyproject.toml": "[tool.ruff]\n"})
    assert _judge(ws, "keep ruff clean") == [("ruff check .", False)]
    (ws / "app.py").write_text(APP_OK)
    assert _judge(ws, "keep ruff clean") == [("ruff check .", True)]


@pytest.mark.skipif(shutil.which("npm") is None or shutil.which("node") is None, reason="npm/node not installed")
def test_npm_workspace_runs_for_real(tmp_path: Path) -> None:
    test = "const assert = require('assert');\nassert.strictEqual(require('./app').add(1, 2), 3);\n"
    ws = _files(tmp_path, {"package.json": json.dumps({"name": "x", "version": "1.0.0",
                                                       "scripts": {"test": "node test.js"}}),
                           "app.js": "exports.add = (a, b) => a - b;\n", "test.js": test})
    assert _judge(ws) == [("npm test", False)]
    (ws / "app.js").write_text("exports.add = (a, b) => a + b;\n")
    assert _judge(ws) == [("npm test", True)]


@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
def test_make_workspace_runs_for_real(tmp_path: Path) -> None:
    check = f"{sys.executable} -c \"import app, sys; sys.exit(0 if app.add(1, 2) == 3 else 1)\""
    ws = _files(tmp_path, {"Makefile": f"test:\n\t{check}\n", "app.py": APP_BUG})
    assert _judge(ws) == [("make test", False)]
    (ws / "app.py").write_text(APP_OK)
    assert _judge(ws) == [("make test", True)]


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo not installed")
def test_cargo_workspace_runs_for_real(tmp_path: Path) -> None:
    lib = "pub fn add(a: i32, b: i32) -> i32 { a OP b }\n#[test]\nfn adds() { assert_eq!(add(1, 2), 3); }\n"
    ws = _files(tmp_path, {"Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
                           "src/lib.rs": lib.replace("OP", "-")})
    assert _judge(ws) == [("cargo test", False)]
    (ws / "src" / "lib.rs").write_text(lib.replace("OP", "+"))
    assert _judge(ws) == [("cargo test", True)]


def test_a_config_file_that_does_not_parse_is_named_not_silently_ignored(tmp_path: Path) -> None:
    ws = _files(tmp_path, {"pyproject.toml": "[tool.pytest\nbroken", "package.json": '{"scripts": [1,',
                           "setup.cfg": "no section header\n"})
    with pytest.raises(ConfigError) as e:
        infer_conditions(ws, "make the tests pass", _all_usable)
    msg = str(e.value)
    assert "could not read pyproject.toml (" in msg and "line 1" in msg
    assert "could not read package.json (" in msg and "could not read setup.cfg (" in msg
    # still inferred from what parses, with the damaged one said in the explanation
    _files(ws, {"pytest.ini": "[pytest]\n"})
    inf = infer_conditions(ws, "make the tests pass", _all_usable)
    assert [c.command for c in inf.chosen] == ["pytest -q"]
    assert any(line.startswith("  could not read pyproject.toml") for line in inf.explain())
