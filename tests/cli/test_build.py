"""``goalkeeper build`` end to end through the real console entry point."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

SPECS = Path(__file__).resolve().parents[1] / "builder" / "specs"


def test_build_writes_the_target_files(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    shutil.copy(SPECS / "pipeline.yaml", spec)
    r = run_cli("build", spec, "--target", "code")
    assert r.returncode == 0, r.stderr
    out = tmp_path / "build" / "code"
    assert sorted(p.name for p in out.iterdir()) == ["SPEC.md", "actions.json", "runner.py"]
    assert "python" in r.stdout and "runner.py" in r.stdout
    table = json.loads((out / "actions.json").read_text())
    assert [a["name"] for a in table["actions"]] == ["build", "bump", "release", "release_all_in_one"]


def test_build_is_byte_identical_across_runs(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    shutil.copy(SPECS / "pipeline.yaml", spec)
    for out in ("a", "b"):
        r = run_cli("build", spec, "-t", "hybrid", "-o", tmp_path / out, "--json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["files"] == sorted(json.loads(r.stdout)["files"])
    for f in (tmp_path / "a").iterdir():
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes()


def test_build_refuses_a_spec_with_unobserved_facts(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    spec = tmp_path / "blind.yaml"
    spec.write_text("goalkeeper: 1\ngoal: {ok: true}\nfacts: {ok: {}}\nactions: {fix: {effects: {ok: true}}}\n")
    r = run_cli("build", spec, "-t", "llm")
    assert r.returncode == 1
    assert "facts.ok" in r.stderr and "observer" in r.stderr
    assert not (tmp_path / "build").exists()


def test_build_usage_errors_exit_2(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    shutil.copy(SPECS / "pipeline.yaml", spec)
    assert run_cli("build", spec, "--target", "cobol").returncode == 2
    assert run_cli("build", spec).returncode == 2


def test_build_with_a_state_for_the_first_plan(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    shutil.copy(SPECS / "pipeline.yaml", spec)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"built": True, "version": 2, "released": False}))
    r = run_cli("build", spec, "-t", "llm", "--state", state, "-o", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    assert "finds 1 step(s) of total cost 1: release." in (tmp_path / "o" / "SPEC.md").read_text()
