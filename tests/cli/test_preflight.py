"""Preflight through the real CLI: `goal new` refuses what could never work, before anything is saved
or paid for; with no --until it infers the checks; `run` refuses unset ${VAR} and shell operators."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
FAKES = Path(__file__).resolve().parents[1] / "fakes" / "bin"
CLI = [sys.executable, "-m", "goalkeeper"]


def gk(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    return subprocess.run([*CLI, *args], cwd=cwd, env=full, capture_output=True, text=True, timeout=120)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A small Python project: a failing test and pytest config, in git."""
    w = tmp_path / "project"
    (w / "tests").mkdir(parents=True)
    (w / "app.py").write_text("def add(a, b):\n    return a - b\n")
    (w / "tests" / "test_app.py").write_text("from app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")
    (w / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n\n[tool.ruff]\n')
    subprocess.run(["git", "init", "-q"], cwd=w, check=True)
    return w


def _no_goals(ws: Path) -> bool:
    out = gk("goal", "list", "--json", cwd=ws)
    return out.returncode == 0 and json.loads(out.stdout) == []


def test_a_chained_until_is_refused_with_two_until_flags_as_the_fix(ws: Path) -> None:
    r = gk("goal", "new", "fix it", "--until", "pytest -q && ruff check .", "--maker", "true", cwd=ws)
    assert r.returncode == 1, r.stderr
    assert "goal new refused" in r.stderr and "runs without a shell" in r.stderr
    assert "--until 'pytest -q' --until 'ruff check .'" in r.stderr
    assert "Traceback" not in r.stderr and _no_goals(ws)


def test_a_typo_in_the_check_is_refused_with_did_you_mean(ws: Path) -> None:
    r = gk("goal", "new", "fix it", "--until", "pytset -q", "--maker", "true", cwd=ws)
    assert r.returncode == 1
    assert "'pytset' cannot be started: not found on PATH" in r.stderr and "did you mean 'pytest'?" in r.stderr
    assert _no_goals(ws)


def test_a_maker_binary_that_does_not_exist_is_refused(ws: Path) -> None:
    r = gk("goal", "new", "fix it", "--until", "pytest -q", "--maker", "gk-no-such-maker-xyz {objective}", cwd=ws)
    assert r.returncode == 1 and "--maker: 'gk-no-such-maker-xyz' cannot be started" in r.stderr
    script = gk("goal", "new", "fix it", "--until", "pytest -q", "--maker", "python gk_missing_fixer.py", cwd=ws)
    assert script.returncode == 1 and "the script 'gk_missing_fixer.py' does not exist" in script.stderr
    assert _no_goals(ws)


def test_a_missing_agent_cli_is_refused_with_its_install_hint(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    for prog in ("git", "true"):
        (bare / prog).symlink_to(shutil.which(prog) or f"/usr/bin/{prog}")
    r = gk("goal", "new", "fix it", "--until", "true", "--maker-type", "claude-code", cwd=ws,
           env={"PATH": str(bare)})
    assert r.returncode == 1
    assert "--maker-type claude-code runs 'claude', which is not installed" in r.stderr
    assert "npm install -g @anthropic-ai/claude-code" in r.stderr
    oracle = gk("goal", "new", "fix it", "--until", "true", "--maker", "true", "--oracle", "agent:codex", cwd=ws,
                env={"PATH": str(bare)})
    assert oracle.returncode == 1 and "npm install -g @openai/codex" in oracle.stderr
    assert _no_goals(ws)
    # installed (the fake CLIs speak the real output formats): accepted
    ok = gk("goal", "new", "fix it", "--until", "true", "--maker-type", "claude-code", cwd=ws,
            env={"PATH": f"{FAKES}{os.pathsep}{bare}"})
    assert ok.returncode == 0, ok.stderr


def test_sandbox_bwrap_without_bubblewrap_is_refused(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    for prog in ("git", "true"):
        (bare / prog).symlink_to(shutil.which(prog) or f"/usr/bin/{prog}")
    r = gk("goal", "new", "fix it", "--until", "true", "--maker", "true", "--sandbox", "bwrap", cwd=ws,
           env={"PATH": str(bare)})
    assert r.returncode == 1 and "apt-get install bubblewrap" in r.stderr


def test_an_llm_oracle_without_a_key_or_endpoint_is_refused(ws: Path) -> None:
    env = {k: "" for k in ("OPENAI_API_KEY", "GOALKEEPER_LLM_API_KEY", "OPENAI_BASE_URL", "GOALKEEPER_LLM_BASE_URL")}
    r = gk("goal", "new", "fix it", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-4o-mini",
           cwd=ws, env=env)
    assert r.returncode == 1 and "export GOALKEEPER_LLM_API_KEY or OPENAI_API_KEY" in r.stderr
    ok = gk("goal", "new", "fix it", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-4o-mini",
            "--oracle-option", "base_url=http://127.0.0.1:9/v1", cwd=ws, env=env)
    assert ok.returncode == 0, ok.stderr


def test_other_shell_habits_are_refused_or_warned(ws: Path) -> None:
    r = gk("goal", "new", "fix it", "--until", "CI=1 pytest -q", "--maker", "true", cwd=ws)
    assert r.returncode == 1 and "--check-env CI=1" in r.stderr
    r = gk("goal", "new", "fix it", "--until", f"{sys.executable} -m gk_no_such_module_xyz", "--maker", "true", cwd=ws)
    assert r.returncode == 1 and "cannot import 'gk_no_such_module_xyz'" in r.stderr
    r = gk("goal", "new", "fix it", "--until", "ruff check $SRC", "--maker", "true", cwd=ws)
    assert r.returncode == 0 and "warning: --until 'ruff check $SRC'" in r.stderr and "no shell expands it" in r.stderr


def test_a_good_goal_says_what_is_sandboxed(ws: Path) -> None:
    r = gk("goal", "new", "fix it", "--until", "pytest -q", "--maker", "true", cwd=ws)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith("goal-")
    assert "sandbox: " in r.stderr


def test_no_until_infers_the_checks_and_marks_them_inferred(ws: Path) -> None:
    r = gk("goal", "new", "make the tests pass and keep ruff clean", "--maker", "true", "--json", cwd=ws)
    assert r.returncode == 0, r.stderr
    assert "inferred --until 'pytest -q' (test_pass): pyproject.toml has [tool.pytest]" in r.stderr
    assert "inferred --until 'ruff check .' (lint_clean): pyproject.toml has [tool.ruff]" in r.stderr
    goal = json.loads(r.stdout)
    assert [(c["type"], c["command"]) for c in goal["stoppingConditions"]] == [
        ("test_pass", "pytest -q"), ("lint_clean", "ruff check .")]
    inferred = goal["source"]["inferred"]
    assert inferred["wanted"] == ["tests", "lint"]
    assert [c["command"] for c in inferred["conditions"]] == ["pytest -q", "ruff check ."]
    shown = gk("goal", "show", goal["goalId"], "--json", cwd=ws)
    assert json.loads(shown.stdout)["source"]["inferred"] == inferred  # it survives the signed round trip


@pytest.mark.parametrize("answer", ["n", "y"])
def test_at_a_terminal_inferred_checks_are_confirmed_first(ws: Path, answer: str) -> None:
    import pexpect

    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200"}
    child = pexpect.spawn(sys.executable, ["-m", "goalkeeper", "goal", "new", "make the tests pass", "--maker", "true"],
                          cwd=str(ws), env=env, encoding="utf-8", timeout=60)
    try:
        child.expect("inferred --until 'pytest -q'")
        child.expect(r"use the inferred checks above\? \[Y/n\]")
        child.sendline(answer)
        child.expect(pexpect.EOF)
    finally:
        child.close()
    if answer == "n":
        assert child.exitstatus == 1 and _no_goals(ws)
    else:
        assert child.exitstatus == 0 and not _no_goals(ws)


def test_no_until_and_nothing_to_infer_is_a_usage_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("hi\n")
    r = gk("goal", "new", "make the tests pass", "--maker", "true", cwd=empty)
    assert r.returncode == 2
    assert "nothing in" in r.stderr and "--until 'pytest -q'" in r.stderr and "Traceback" not in r.stderr
    r = gk("goal", "new", "make the tests pass", "--type", "test_pass", "--maker", "true", cwd=empty)
    assert r.returncode == 2 and "--type pairs with --until" in r.stderr



def test_goal_run_refuses_a_goal_whose_maker_vanished_before_any_iteration(ws: Path, tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    fixer = tools / "gk-fixer-xyz"
    fixer.write_text("#!/bin/sh\nexit 0\n")
    fixer.chmod(0o755)
    env = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    made = gk("goal", "new", "fix it", "--until", "pytest -q", "--maker", "gk-fixer-xyz {objective}", "--json",
              cwd=ws, env=env)
    assert made.returncode == 0, made.stderr
    gid = json.loads(made.stdout)["goalId"]
    fixer.unlink()  # uninstalled between `goal new` and `goal run`
    r = gk("goal", "run", gid, cwd=ws, env=env)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "goal run refused" in r.stderr and "'gk-fixer-xyz' cannot be started" in r.stderr
    assert f"goalkeeper doctor {gid}" in r.stderr and "Traceback" not in r.stderr
    shown = json.loads(gk("goal", "show", gid, "--json", cwd=ws).stdout)
    assert shown["state"] == "active" and shown["history"] == []  # nothing ran, nothing was paid
    gk("goal", "pause", gid, cwd=ws, env=env)
    resumed = gk("goal", "resume", gid, cwd=ws, env=env)
    assert resumed.returncode == 1 and "goal resume refused" in resumed.stderr, resumed.stderr
    assert json.loads(gk("goal", "show", gid, "--json", cwd=ws).stdout)["history"] == []


SPEC_VAR = """
goalkeeper: 1
goal: {done: true}
facts:
  done: {observe: {file: "${GK_OUT_DIR_XYZ}/done"}}
actions:
  make_it: {pre: {done: false}, effects: {done: true}, run: [touch, "${GK_OUT_DIR_XYZ}/done"]}
"""
SPEC_OPS = """
goalkeeper: 1
goal: {done: true}
facts:
  done: {observe: {file: done}}
actions:
  make_it: {pre: {done: false}, effects: {done: true}, run: [touch, done, "&&", echo, ok]}
"""
SPEC_MISSING = """
goalkeeper: 1
goal: {done: true}
facts:
  done: {observe: {file: done}}
actions:
  make_it: {pre: {done: false}, effects: {done: true}, run: [gk-no-such-tool-xyz]}
policy: {strikes: 1}
"""


def test_run_refuses_an_unset_variable_before_the_first_tick(tmp_path: Path, goalkeeper_home: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC_VAR)
    r = gk("run", str(spec), cwd=tmp_path)
    assert r.returncode == 1
    assert "run refused" in r.stderr and "${GK_OUT_DIR_XYZ} is not set" in r.stderr and "(line 5)" in r.stderr
    assert not list(goalkeeper_home.glob("runs/run-*"))  # refused before the run existed
    out = tmp_path / "out"
    out.mkdir()
    ok = gk("run", str(spec), cwd=tmp_path, env={"GK_OUT_DIR_XYZ": str(out)})
    assert ok.returncode == 0, ok.stderr
    assert "warning" not in ok.stderr and (out / "done").is_file()


def test_run_refuses_operators_in_an_argv_list(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC_OPS)
    r = gk("run", str(spec), cwd=tmp_path)
    assert r.returncode == 1 and "actions.make_it.run" in r.stderr and "sh -c" in r.stderr


def test_run_warns_about_a_missing_program_and_goes_on(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC_MISSING)
    r = gk("run", str(spec), cwd=tmp_path)
    assert "warning: actions.make_it.run (line 7): 'gk-no-such-tool-xyz' cannot be started" in r.stderr
    assert r.returncode == 3  # the run still goes on to its verdict (an earlier action might have built it)


def test_the_driver_refuses_unset_variables_for_library_users(tmp_path: Path) -> None:
    from goalkeeper.errors import SpecError
    from goalkeeper.runtime.driver import RunOptions, start_run

    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC_VAR)
    with pytest.raises(SpecError) as e:
        start_run(spec, RunOptions(env={"PATH": os.environ["PATH"]}))
    assert any(i.code == "unset-var" and i.line == 5 for i in e.value.issues)


PARITY = {
    "no-observer": ("done: {}", "facts.done"),
    "url-without-scheme": ('done: {observe: {http: "127.0.0.1:8080/health"}, initial: false}',
                           "facts.done.observe.http"),
    "python-without-colon": ('done: {observe: {python: "mymod.func"}, initial: false}', "facts.done.observe.python"),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_validate_rejects_what_run_rejects_naming_the_same_key(case: str, tmp_path: Path) -> None:
    fact, key = PARITY[case]
    spec = tmp_path / "spec.yaml"
    spec.write_text("goalkeeper: 1\ngoal: {done: true}\nfacts:\n  " + fact + "\nactions:\n"
                    "  make: {pre: {done: false}, effects: {done: true}, run: [touch, x]}\n")
    v = gk("validate", str(spec), cwd=tmp_path)
    r = gk("run", str(spec), "--max-ticks", "1", cwd=tmp_path)
    assert v.returncode == 1 and r.returncode == 1, (v.stdout + v.stderr, r.stdout + r.stderr)
    assert key in v.stdout + v.stderr and key in r.stdout + r.stderr
    assert not (tmp_path / "x").exists()  # run refused before any action
    assert "Traceback" not in v.stderr + r.stderr
