"""Preflight of a GOAP spec: every observer and action checked before the first tick.

A run whose spec references an unset ``${VAR}`` or hands a shell operator to
a program as an argv item fails on every tick; a program that is not there
now probably will too (an earlier action may still install it, so that is a
warning). The shared parts (problems, reports, the shell-syntax scan, the
program lookup) are in :mod:`goalkeeper.proc.preflight`.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import ConfigError
from ..model.spec import Spec
from ..model.vars import unset_variables
from ..proc import resolve_argv, spawn_problem
from ..proc.preflight import (
    _ASSIGN,
    SHELL_BUILTINS,
    Note,
    Problem,
    Report,
    Severity,
    find_program,
    flag_value,
    module_available,
    not_found,
    shell_problems,
    shell_syntax,
    split_chain,
    suggest_program,
)
from .process import expand_env

__all__ = [
    "Note",
    "Problem",
    "Report",
    "Severity",
    "find_program",
    "flag_value",
    "module_available",
    "preflight_spec",
    "refuse",
    "shell_problems",
    "shell_syntax",
    "split_chain",
    "suggest_program",
]


def refuse(report: Report, what: str) -> None:
    """Raise the report's errors as one :class:`ConfigError` (each with its fix)."""
    if report.errors:
        raise ConfigError(report.refusal(what))


# --- GOAP specs --------------------------------------------------------------------------------

def _line(spec: Spec, path: str) -> int | None:
    from ..errors import SpecIssue
    from ..model.loader import attach_lines

    return attach_lines(spec, [SpecIssue(path, "")])[0].line


def _commands(spec: Spec) -> Iterable[tuple[str, str | list[str], str | None, Mapping[str, str] | None]]:
    """(key path, command, cwd, env) of every observer command and action run."""
    for name, fact in spec.facts.items():
        obs = fact.observe
        if obs is not None and obs.command is not None:
            yield f"facts.{name}.observe.command", obs.command, obs.cwd, obs.env
    for name, action in spec.actions.items():
        if action.run is not None:
            yield f"actions.{name}.run", action.run, action.cwd, action.env


def _first_word(command: str) -> str | None:
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for w in words:
        if _ASSIGN.match(w):
            continue
        return None if w in SHELL_BUILTINS or any(ch in w for ch in "$`(){}<>|&;*?") else w
    return None


def preflight_spec(spec: Spec, env: Mapping[str, str], base_dir: Path) -> Report:
    """Every observer and action of ``spec`` checked against ``env`` from ``base_dir``.

    Errors (a run refuses them): unset ``${VAR}`` references, shell operators
    as items of an argv list. Warnings: a program that is not there now (an
    earlier action may still install or build it), a missing ``cwd``, a
    ``python:`` observer whose module cannot be found.
    """
    rep = Report()
    for issue in unset_variables(spec, env, severity="error"):
        rep.problems.append(Problem("unset-var", issue.path, issue.message, "", "error", _line(spec, issue.path)))
    runtime_env = {**env, "GOALKEEPER_RUN_ID": "run-preflight", "GOALKEEPER_SPEC_DIR": str(base_dir),
                   "GOALKEEPER_TICK": "0"}
    for where, cmd, cwd_rel, own_env in _commands(spec):
        line = _line(spec, where)
        cwd = base_dir / cwd_rel if cwd_rel else base_dir
        if not cwd.is_dir():
            rep.problems.append(Problem("no-cwd", where, f"its working directory {cwd} does not exist",
                                        "create it, or fix `cwd:`", "warning", line))
            continue
        full_env = {**runtime_env, **{k: expand_env(v, runtime_env) for k, v in (own_env or {}).items()}}
        if isinstance(cmd, str):  # the author chose a shell: only its first word can be looked up
            word = _first_word(expand_env(cmd, full_env))
            if word and find_program(word, cwd, full_env) is None:
                rep.problems.append(_at(not_found(word, where, full_env, severity="warning"), line))
            continue
        expanded = [expand_env(a, full_env) for a in cmd]  # the runtime expands ${VAR} in argv items
        for p in shell_problems(expanded, where, flag=where):
            rep.problems.append(_at(p, line))
        argv = resolve_argv(expanded, full_env)
        why = spawn_problem(argv, cwd, full_env)
        if why is not None and argv:
            rep.problems.append(_at(not_found(argv[0], where, full_env, severity="warning"), line))
        elif argv:
            rep.note(where, f"{shlex.join(cmd)} -> {find_program(argv[0], cwd, full_env) or argv[0]}")
    for name, fact in spec.facts.items():
        obs = fact.observe
        if obs is not None and obs.python and ":" in obs.python:
            mod = obs.python.split(":", 1)[0]
            cwd = base_dir / obs.cwd if obs.cwd else base_dir
            if module_available(sys.executable, mod, cwd) is False:
                where = f"facts.{name}.observe.python"
                rep.problems.append(Problem("no-module", where, f"module {mod!r} cannot be imported from {cwd}",
                                            "check the module name, or set the observer's `cwd:`", "warning",
                                            _line(spec, where)))
    return rep


def _at(p: Problem, line: int | None) -> Problem:
    return Problem(p.code, p.where, p.message, p.fix, p.severity, line)
