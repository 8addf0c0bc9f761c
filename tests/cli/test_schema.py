"""`goalkeeper schema` and `--version` end to end."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

import goalkeeper
from goalkeeper.model.schema import spec_schema_text

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_schema_spec_prints_the_schema(run_cli: Run) -> None:
    r = run_cli("schema", "spec")
    assert r.returncode == 0, r.stderr
    assert r.stdout == spec_schema_text()
    schema = json.loads(r.stdout)
    assert schema["title"] == "goalkeeper spec"


def test_schema_defaults_to_spec(run_cli: Run) -> None:
    r = run_cli("schema")
    assert r.returncode == 0
    assert r.stdout == spec_schema_text()


def test_schema_unknown_kind_is_usage_error(run_cli: Run) -> None:
    r = run_cli("schema", "nope")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert "'nope' is not one of" in r.stderr


def test_version(run_cli: Run) -> None:
    r = run_cli("--version")
    assert r.returncode == 0
    assert r.stdout.strip() == f"goalkeeper, version {goalkeeper.__version__}"


def test_help_lists_core_commands(run_cli: Run) -> None:
    r = run_cli("--help")
    assert r.returncode == 0
    for cmd in ("validate", "plan", "schema"):
        assert cmd in r.stdout



def test_schema_goal(run_cli: Run) -> None:
    r = run_cli("schema", "goal")
    assert "Traceback" not in r.stderr
    assert r.returncode == 0
    assert json.loads(r.stdout)["$schema"].startswith("https://json-schema.org/")
