"""`goalkeeper doctor [SPEC | GOAL]` through the real CLI: 0 nothing wrong, 1 problems found, 2 usage."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_preflight import gk


def _project(tmp_path: Path) -> Path:
    w = tmp_path / "project"
    (w / "tests").mkdir(parents=True)
    (w / "app.py").write_text("def add(a, b):\n    return a + b\n")
    (w / "tests" / "test_app.py").write_text("from app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")
    (w / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    subprocess.run(["git", "init", "-q"], cwd=w, check=True)
    return w


def test_doctor_with_nothing_checks_this_machine_and_directory(tmp_path: Path) -> None:
    ws = _project(tmp_path)
    r = gk("doctor", cwd=ws)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "doctor: this machine and" in r.stdout and "containment" in r.stdout
    assert "with no --until here, would check: pytest -q" in r.stdout
    data = json.loads(gk("doctor", "--json", cwd=ws).stdout)
    assert data["ok"] is True and data["problems"] == [] and {n["where"] for n in data["notes"]} >= {"git", "state"}


def test_doctor_on_a_goal_explains_how_each_command_resolves(tmp_path: Path) -> None:
    ws = _project(tmp_path)
    fixer = ws / "fixer.py"
    fixer.write_text("print('nothing to do')\n")
    made = gk("goal", "new", "keep it green", "--until", "pytest -q", "--maker", f"{sys.executable} fixer.py",
              cwd=ws)
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    r = gk("doctor", gid, cwd=ws)
    assert r.returncode == 0, r.stdout
    assert f"doctor: goal {gid}" in r.stdout
    assert "sealed, judged from goalkeeper's pytest probe" in r.stdout and "nothing wrong found" in r.stdout
    assert gk("doctor", "last", cwd=ws).returncode == 0  # ids, prefixes and `last` all name the goal
    fixer.unlink()  # the world changed after `goal new`: doctor finds it before `goal run` pays for it
    bad = gk("doctor", gid, "--json", cwd=ws)
    assert bad.returncode == 1
    data = json.loads(bad.stdout)
    assert data["ok"] is False
    (p,) = data["problems"]
    assert p["where"] == "maker" and "fixer.py" in p["message"] and p["fix"]


def test_doctor_on_a_spec_lists_every_problem_with_its_fix(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("""
goalkeeper: 1
goal: {done: true}
facts:
  done: {observe: {file: "${GK_DOCTOR_OUT_XYZ}/done"}}
  ready: {observe: {command: [pytset, -q]}}
actions:
  make_it: {pre: {ready: true}, effects: {done: true}, run: [make, "&&", make, install]}
""")
    r = gk("doctor", str(spec), cwd=tmp_path)
    assert r.returncode == 1
    out = r.stdout
    assert "${GK_DOCTOR_OUT_XYZ} is not set" in out and "(line 5)" in out
    assert "did you mean 'pytest'?" in out
    assert "actions.make_it.run (line 8)" in out and "sh -c" in out
    assert "problems found" in out and "needs a state for" in out
    env = {"GK_DOCTOR_OUT_XYZ": str(tmp_path)}
    data = json.loads(gk("doctor", str(spec), "--json", cwd=tmp_path, env=env).stdout)
    assert {p["code"] for p in data["problems"]} == {"shell-operator", "not-found"}


def test_doctor_on_an_invalid_spec_shows_the_validation_errors(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("goalkeeper: 1\ngoal: {done: true}\nfacts: {}\n")
    r = gk("doctor", str(spec), cwd=tmp_path)
    assert r.returncode == 1 and "goal.done" in r.stdout and "Traceback" not in r.stderr


def test_doctor_with_neither_a_spec_nor_a_goal_is_a_usage_error(tmp_path: Path) -> None:
    r = gk("doctor", "nothing-like-this", cwd=tmp_path)
    assert r.returncode == 2 and "neither a spec file nor a goal" in r.stderr
    r = gk("doctor", "../../etc/passwd", cwd=tmp_path, env={"PATH": os.environ["PATH"]})
    assert r.returncode in (1, 2) and "Traceback" not in r.stderr


def test_doctor_says_what_each_optional_tool_enables_and_how_to_install_it(tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "git").symlink_to("/usr/bin/git")
    fake = bare / "temporal"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    r = gk("doctor", "--json", cwd=tmp_path, env={"PATH": str(bare)})
    assert r.returncode == 0, r.stdout + r.stderr  # optional parts missing are not problems
    notes = {n["where"]: n["text"] for n in json.loads(r.stdout)["notes"]}
    assert notes["temporal"].startswith(str(fake)) and "--engine temporal" in notes["temporal"]
    assert notes["chromium"].startswith("not installed (apt-get install chromium)")
    assert "bubblewrap is not installed" in notes["sandbox"] and "apt-get install bubblewrap" in notes["sandbox"]
    for extra in ("openai", "anthropic", "prices", "temporal"):
        assert f"extra {extra}" in notes
    human = gk("doctor", cwd=tmp_path, env={"PATH": str(bare)})
    assert "absent   chromium: not installed" in human.stdout and "Traceback" not in human.stderr
