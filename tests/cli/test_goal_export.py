"""`goalkeeper goal export`: the goal as schema-valid JSON, to stdout or a file."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import jsonschema

from goalkeeper.model.schema import packaged_schema

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_export_to_stdout_and_file(run_cli: Run, tmp_path: Path) -> None:
    made = run_cli("goal", "new", "ship it", "--until", "true", "--maker", "true", "--workspace", str(tmp_path))
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    out = run_cli("goal", "export", gid)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    data = json.loads(out.stdout)
    jsonschema.validate(data, json.loads(packaged_schema("goal")))
    assert data["goalId"] == gid and data["objective"] == "ship it"
    dest = tmp_path / "exported.json"
    assert run_cli("goal", "export", gid, "-o", str(dest)).returncode == 0
    assert json.loads(dest.read_text()) == data


def test_export_unknown_goal_is_a_clear_error(run_cli: Run) -> None:
    r = run_cli("goal", "export", "goal-zzzzzzzz")
    assert r.returncode == 1 and "no goal" in r.stderr and "Traceback" not in r.stderr
