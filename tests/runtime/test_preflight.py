"""runtime.preflight: shell syntax in commands no shell reads, program lookup, and a spec's commands."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from goalkeeper.model.loader import load_spec
from goalkeeper.runtime.preflight import (
    flag_value,
    preflight_spec,
    refuse,
    shell_problems,
    shell_syntax,
    split_chain,
    suggest_program,
)


@pytest.mark.parametrize(("command", "ops"), [
    ("pytest -q && ruff check .", ["&&"]),
    ("pytest -q; ruff check .", [";"]),
    ("pytest -q || true", ["||"]),
    ("pytest -q | tee log", ["|"]),
    ("pytest -q > out.txt", [">"]),
    ("pytest -q 2>/dev/null", ["2>"]),
    ("pytest -q&&ruff", ["&&"]),
    ("echo $(date)", ["$("]),
    ('echo "$(date)"', ["$("]),
    ("echo `date`", ["`"]),
    ("pytest -q &", ["&"]),
    ("grep '>' file", []),
    ('python -c "import sys; sys.exit(0)"', []),
    ("python -c 'a && b'", []),
    (r"echo a\;b", []),
    ("pytest -k 'not slow'", []),
    ("pytest -q", []),
])
def test_operators_are_found_only_where_a_shell_would_read_them(command: str, ops: list[str]) -> None:
    assert shell_syntax(command).operators == ops


def test_an_argv_list_item_is_one_argument_unless_it_is_exactly_an_operator() -> None:
    assert shell_syntax(["make", "&&", "make", "install"]).operators == ["&&"]
    assert shell_syntax(["sh", "-c", "a && b"]).operators == []
    assert shell_syntax(["grep", "a|b", "f"]).operators == []


def test_variables_globs_tilde_and_assignments() -> None:
    syn = shell_syntax("FOO=1 pytest -q $HOME ${X} '$NOT' ~/x src/*.py")
    assert syn.assignment == "FOO=1"
    assert syn.variables == ["$HOME", "${X}"]
    assert syn.tilde and syn.globs == ["src/*.py"]
    assert shell_syntax("pytest 'src/*.py'").globs == []


def test_a_chain_splits_into_commands() -> None:
    assert split_chain("pytest -q && ruff check . ; mypy 'a && b'") == ["pytest -q", "ruff check .", "mypy 'a && b'"]


def test_the_fix_for_a_chain_is_two_flags_that_can_be_pasted() -> None:
    (p,) = shell_problems("pytest -q && ruff check .", "--until", flag="--until")
    assert p.severity == "error" and p.code == "shell-operator"
    assert "--until 'pytest -q' --until 'ruff check .'" in p.fix
    assert "--until \"sh -c 'pytest -q && ruff check .'\"" in p.fix
    # the suggestion, pasted into a shell, gives back exactly the intended argv
    assert shlex.split(flag_value(["sh", "-c", "pytest -q && ruff check ."])) == ["sh -c 'pytest -q && ruff check .'"]
    (pipe,) = shell_problems("pytest -q | tee log", "--until", flag="--until")
    assert "--until \"sh -c 'pytest -q | tee log'\"" in pipe.fix and "its own condition" not in pipe.fix


def test_an_assignment_names_the_env_flag() -> None:
    (p,) = shell_problems("CI=1 pytest -q", "--until", flag="--until", env_flag="--check-env")
    assert p.code == "shell-assignment" and "--check-env CI=1" in p.fix


def test_variables_and_globs_are_warnings() -> None:
    probs = shell_problems("ruff check $SRC", "--until", flag="--until")
    assert [(p.code, p.severity) for p in probs] == [("shell-variable", "warning")]
    probs = shell_problems("ruff check src/*.py", "--until", flag="--until")
    assert [(p.code, p.severity) for p in probs] == [("shell-expansion", "warning")]


def test_a_typo_gets_a_did_you_mean(tmp_path: Path) -> None:
    assert suggest_program("pytset", os.environ.get("PATH")) == "pytest"
    assert suggest_program("rufff", os.environ.get("PATH")) == "ruff"
    assert suggest_program("zzqxvw", str(tmp_path)) is None


SPEC = """
goalkeeper: 1
goal: {done: true}
facts:
  done:
    observe: {file: "${OUT_DIR}/done"}
  up:
    observe: {command: [gk-no-such-probe-xyz, --ping]}
  ok:
    observe: {command: "gk-no-such-shell-probe-xyz --x"}
  fine:
    observe: {command: [%(py)s, -c, "print(1)"]}
actions:
  build:
    pre: {up: true}
    effects: {done: true}
    run: [make, "&&", make, install]
  deploy:
    pre: {ok: true}
    effects: {up: true}
    run: [./deploy.sh]
"""


def test_a_spec_preflight_finds_every_kind(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC % {"py": sys.executable})
    rep = preflight_spec(load_spec(path), {"PATH": os.environ["PATH"]}, tmp_path)
    got = {(p.code, p.where, p.severity) for p in rep.problems}
    assert ("unset-var", "facts.done.observe.file", "error") in got
    assert ("shell-operator", "actions.build.run", "error") in got
    assert ("not-found", "facts.up.observe.command", "warning") in got
    assert ("not-found", "facts.ok.observe.command", "warning") in got
    assert ("not-found", "actions.deploy.run", "warning") in got  # an earlier action may still create it
    assert all(p.line for p in rep.problems), rep.problems  # each points at its line in the file
    assert any(n.where == "facts.fine.observe.command" for n in rep.notes)
    with pytest.raises(Exception, match="run refused: 2 problems"):
        refuse(rep, "run refused")
    clean = preflight_spec(load_spec(path), {"PATH": os.environ["PATH"], "OUT_DIR": str(tmp_path)}, tmp_path)
    assert "unset-var" not in {p.code for p in clean.problems}
