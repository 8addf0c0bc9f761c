"""Preflight of a goal: every stopping condition, the maker and the oracle, before anything is paid.

A goal whose check can never start (``pytset -q``), whose check hands ``&&``
to pytest, whose maker binary does not exist or whose coding-agent CLI is not
installed used to run full maker iterations before anyone noticed. Here each
command is resolved the way the run will resolve it: conditions through
:func:`.toolchain.resolve_command` (``PATH`` without ``.``, then a project
venv, then goalkeeper's own interpreter for known Python tools, never the
workspace), makers through the process runner's own lookup. Every problem
names where it is written and the fix; notes say how each command resolved,
which checks are sealed and what the sandbox will do.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from ..errors import ConfigError, GoalkeeperError
from ..proc import bwrap_path, resolve_argv, spawn_problem, split_command
from ..proc.preflight import (
    Note,
    Problem,
    Report,
    find_program,
    module_available,
    not_found,
    shell_problems,
)
from .contracts import get_maker, get_oracle
from .goal import PLACEHOLDERS, Goal, MakerSpec, OracleConfig, StoppingCondition
from .toolchain import resolve_command

__all__ = [
    "AGENT_INSTALL",
    "Note",
    "Problem",
    "Report",
    "preflight_conditions",
    "preflight_goal",
    "preflight_maker",
    "preflight_oracle",
    "preflight_parts",
    "refuse",
    "refuse_unrunnable_goal",
    "refuse_unrunnable_goal_id",
]

# How to install each coding-agent CLI (by program name), as their projects document it.
AGENT_INSTALL = {
    "claude": "npm install -g @anthropic-ai/claude-code",
    "codex": "npm install -g @openai/codex",
    "gemini": "npm install -g @google/gemini-cli",
    "opencode": "npm install -g opencode-ai",
    "aider": "python -m pip install aider-install && aider-install",
    "goose": "brew install block-goose-cli, or the download_cli.sh script from github.com/block/goose",
}
_SEALED_TOOLS = {"pytest": "judged from goalkeeper's pytest probe", "coverage": "coverage read from private data",
                 "ruff": "judged from ruff's JSON report", "mypy": "static: config and toolchain sealed"}
_LLM_KEYS = {"openai": ("GOALKEEPER_LLM_API_KEY", "OPENAI_API_KEY"),
             "anthropic": ("GOALKEEPER_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY")}
_LLM_BASE = {"openai": ("GOALKEEPER_LLM_BASE_URL", "OPENAI_BASE_URL"), "anthropic": ()}


def refuse(report: Report, what: str) -> None:
    """Raise the report's errors as one :class:`ConfigError` (each with its fix)."""
    if report.errors:
        raise ConfigError(report.refusal(what))


def _label(flag: bool, i: int, command: str | list[str]) -> str:
    text = command if isinstance(command, str) else shlex.join(command)
    return f"--until {shlex.quote(text)}" if flag else f"stoppingConditions[{i}] ({text})"


def preflight_conditions(conditions: Sequence[StoppingCondition], ws: Path, env: Mapping[str, str], *,
                         flags: bool = False) -> Report:
    """Each condition resolved as the sealed checks will resolve it."""
    rep = Report()
    for i, cond in enumerate(conditions):
        where = _label(flags, i, cond.command)
        shell = shell_problems(cond.command, where, flag="--until", env_flag="--check-env")
        rep.problems += shell
        if any(p.severity == "error" for p in shell):
            continue
        try:
            argv = split_command(cond.command)
        except ValueError as e:
            rep.problems.append(Problem("unsplittable", where, str(e), "fix the quoting"))
            continue
        res = resolve_command(argv, ws, env, sys.executable)
        if res.problem or res.executable is None:
            rep.problems.append(not_found(argv[0], where, env))
            continue
        missing = _missing_python_part(res.argv, res.interpreter, ws, where)
        if missing is not None:
            rep.problems.append(missing)
            continue
        how = _SEALED_TOOLS.get(res.tool or "")
        seal = f"sealed, {how}" if how else "unsealed: judged by exit code and summary"
        rep.note(where, f"runs {shlex.join(res.argv)} ({cond.type}; {seal})")
    return rep


def _missing_python_part(argv: Sequence[str], interpreter: str | None, ws: Path, where: str) -> Problem | None:
    """``python -m X`` where X cannot be imported, ``python script.py`` where the script is not there."""
    if interpreter is None or len(argv) < 2:
        return None
    if argv[1] == "-m" and len(argv) >= 3:
        mod = argv[2]
        if module_available(interpreter, mod, ws) is False:
            pip = {"pytest": "pytest", "coverage": "coverage", "ruff": "ruff", "mypy": "mypy"}.get(mod.split(".")[0])
            fix = (f"install it for that interpreter ({interpreter} -m pip install {pip}), or into the project's "
                   ".venv" if pip else "check the module name, or install the package that provides it")
            return Problem("no-module", where, f"{interpreter} cannot import {mod!r}", fix)
        return None
    script = argv[1]
    if script.startswith("-") or not script.endswith(".py"):
        return None
    path = Path(script) if os.path.isabs(script) else ws / script
    if not path.is_file():
        return Problem("not-found", where, f"the script {script!r} does not exist (looked in {path.parent})",
                       "check the path; relative paths are taken from the workspace")
    return None


def _placeholder_program(argv: Sequence[str], where: str) -> Problem | None:
    if argv and argv[0] in PLACEHOLDERS:
        return Problem("placeholder-program", where, f"the program is the placeholder {argv[0]}",
                       "put the program first, e.g. --maker 'my-agent {objective} {hint}'")
    return None


def preflight_maker(maker: MakerSpec, ws: Path, env: Mapping[str, str], *, text: str | None = None,
                    flags: bool = False) -> Report:
    """The maker's program resolved the way its run will resolve it; agent CLIs must be installed."""
    rep = Report()
    where = "--maker" if flags else "maker"
    if maker.type == "host":
        rep.note(where, "the agent host is the maker: goalkeeper never starts it (judge its work with "
                        "`goalkeeper goal check`)")
        return rep
    if maker.type == "command":
        if not maker.argv:
            return rep  # `goal new` says a command maker is still missing; `goal run` refuses it
        rep.problems += shell_problems(text if text is not None else maker.argv, where, flag="--maker")
        argv = list(maker.argv)
    else:
        try:
            argv = _agent_command(get_maker(maker), "(objective)")
        except GoalkeeperError as e:
            rep.problems.append(Problem("maker-config", where, str(e), "fix the maker's options"))
            return rep
    bad = _placeholder_program(argv, where)
    if bad is not None:
        rep.problems.append(bad)
        return rep
    full_env = {**os.environ, **env, **maker.env}
    resolved = resolve_argv(argv, full_env)
    if spawn_problem(resolved, ws, full_env) is not None:
        program = resolved[0]
        if maker.type != "command":
            name = Path(program).name
            hint = AGENT_INSTALL.get(name, f"install {name}")
            rep.problems.append(Problem(
                "agent-cli", where, f"--maker-type {maker.type} runs {program!r}, which is not installed "
                f"(not found on PATH)", f"install it: {hint}; or point at it with maker.options.program"))
        else:
            rep.problems.append(not_found(program, where, full_env, hint="install it, or give its full path "
                                          "(the maker runs in the workspace, without a shell)"))
        return rep
    missing = _missing_python_part(resolved, resolved[0] if _is_python(resolved[0]) else None, ws, where)
    if missing is not None:
        rep.problems.append(missing)
        return rep
    rep.note(where, f"runs {shlex.join(resolved[:1])} from {find_program(resolved[0], ws, full_env) or resolved[0]}")
    return rep


class _CommandLine(Protocol):
    def command(self, prompt: str, *, read_only: bool = False) -> list[str]: ...


def _agent_command(agent: object, prompt: str, *, read_only: bool = False) -> list[str]:
    """The argv a coding-agent CLI maker or oracle would start (they register themselves in the
    contracts' registries, so this layer never imports the adapters)."""
    if not callable(getattr(agent, "command", None)):
        raise ConfigError(f"{type(agent).__name__} does not say which program it starts")
    line: _CommandLine = agent  # type: ignore[assignment]
    return line.command(prompt, read_only=read_only) if read_only else line.command(prompt)


def _is_python(program: str) -> bool:
    name = Path(program).name
    return name.startswith("python") or os.path.realpath(program) == os.path.realpath(sys.executable)


def sandbox_note(maker: MakerSpec, *, flags: bool = False) -> tuple[Note | None, Problem | None]:
    """What the sandbox will do for this maker (the loop's own rule), or why it cannot."""
    where = "--sandbox" if flags else "maker.sandbox"
    want = maker.sandbox
    if maker.type == "host":
        return None, None
    if want == "none":
        return Note(where, "off: the maker runs as you (contained: everything it starts dies with it)"), None
    if want == "auto" and maker.type != "command":
        return Note(where, f"{maker.type} keeps its own sandbox flags and is contained; --sandbox bwrap puts it "
                           "under bubblewrap too"), None
    if bwrap_path() is None:
        if want == "bwrap":
            return None, Problem("no-sandbox", where, "--sandbox bwrap asks for bubblewrap, which is not installed",
                                 "install it (apt-get install bubblewrap), or use --sandbox auto or none")
        return Note(where, "bubblewrap is not installed: the maker and the checks run as you, contained but not "
                           "sandboxed (apt-get install bubblewrap to sandbox both)"), None
    return Note(where, "bubblewrap: the workspace writable, the rest of the file system read-only, goalkeeper's "
                       "state and signing keys hidden, a private /tmp (for the maker and for the checks)"), None


def preflight_oracle(oracle: OracleConfig, maker: MakerSpec, ws: Path, env: Mapping[str, str], *,
                     flags: bool = False) -> Report:
    """An agent oracle's CLI must be installed; an LLM oracle needs its SDK and a key (or an endpoint)."""
    from ..llm import parse_model_ref

    rep = Report()
    where = "--oracle" if flags else "oracle.model"
    ref = parse_model_ref(oracle.model)
    if oracle.model == "deterministic":
        rep.note(where, "deterministic: converged when every condition passes on a sealed tree")
        return rep
    if ref.provider == "agent":
        try:
            argv = _agent_command(getattr(get_oracle(oracle), "agent", None), "(evidence)", read_only=True)
        except GoalkeeperError as e:
            rep.problems.append(Problem("oracle-config", where, str(e), "pick another oracle"))
            return rep
        full_env = {**os.environ, **env}
        if spawn_problem(resolve_argv(argv, full_env), ws, full_env) is not None:
            name = Path(argv[0]).name
            rep.problems.append(Problem(
                "agent-cli", where, f"the oracle {oracle.model} runs {argv[0]!r}, which is not installed",
                f"install it: {AGENT_INSTALL.get(name, 'install ' + name)}; or set oracle.options.program"))
        else:
            rep.note(where, f"{oracle.model} in its read-only mode")
        return rep
    provider = ref.provider or ""
    if provider in _LLM_KEYS:
        if importlib.util.find_spec(provider) is None:
            rep.problems.append(Problem("missing-extra", where, f"the {provider} SDK is not installed",
                                        f"pip install 'goalkeeper[{provider}]'"))
            return rep
        opts = oracle.options or {}
        named = opts.get("api_key_env")
        keys_at = (str(named),) if named else _LLM_KEYS[provider]  # api_key_env=NAME: that variable holds it
        given = any(env.get(k) or os.environ.get(k) for k in (*keys_at, *_LLM_BASE[provider]))
        if not (given or opts.get("api_key") or opts.get("base_url")):
            keys = " or ".join(keys_at)
            rep.problems.append(Problem("no-api-key", where, f"the {provider} oracle has no API key or endpoint",
                                        f"export {keys}, or pass --oracle-option base_url=URL for a local server"))
            return rep
        rep.note(where, f"{oracle.model} (an LLM judge: it can veto or hint, never override a failing check)")
    return rep


def preflight_parts(conditions: Sequence[StoppingCondition], maker: MakerSpec, oracle: OracleConfig, ws: Path, *,
                    condition_env: Mapping[str, str] | None = None, maker_text: str | None = None,
                    checkpoints: bool = True, flags: bool = False) -> Report:
    """Everything a goal made of these parts would start, checked now."""
    env = {**os.environ, **(condition_env or {})}
    rep = Report()
    if not ws.is_dir():
        rep.problems.append(Problem("no-workspace", "--workspace" if flags else "workspace",
                                    f"{ws} is not a directory", "create it, or point --workspace at the project"))
        return rep
    if checkpoints and shutil.which("git") is None:
        rep.problems.append(Problem("no-git", "workspace", "git is not installed; checkpoints need it",
                                    "install git (apt-get install git)"))
    rep.extend(preflight_conditions(conditions, ws, env, flags=flags))
    rep.extend(preflight_maker(maker, ws, {}, text=maker_text, flags=flags))
    note, problem = sandbox_note(maker, flags=flags)
    if note is not None:
        rep.notes.append(note)
    if problem is not None:
        rep.problems.append(problem)
    rep.extend(preflight_oracle(oracle, maker, ws, condition_env or {}, flags=flags))
    return rep


def preflight_goal(goal: Goal) -> Report:
    """A saved goal checked as it would run now (tools can vanish after `goal new`)."""
    ws = Path(goal.workspace or os.getcwd())
    return preflight_parts(goal.stopping_conditions, goal.maker, goal.oracle, ws,
                           condition_env=goal.condition_env, checkpoints=goal.guards.checkpoint)


def refuse_unrunnable_goal(goal: Goal, what: str = "goal run refused", *, resuming: bool = False) -> Report:
    """Raise a :class:`ConfigError` naming every fix when the goal could never run now.

    Only an active goal starts a maker; a stopped one is left alone (running it
    reports its state) unless it is about to be resumed. Warnings come back in
    the report for the caller to show.
    """
    if goal.state != "active" and not resuming:
        return Report()
    rep = preflight_goal(goal)
    if rep.errors:
        raise ConfigError(rep.refusal(what) + f"\n  (`goalkeeper doctor {goal.goal_id}` checks it again)")
    return rep


def refuse_unrunnable_goal_id(goal_id: str, what: str = "goal run refused", *, resuming: bool = False,
                              root: Path | None = None) -> Report:
    """:func:`refuse_unrunnable_goal` for a stored goal. A goal file that does not load as it is
    (unsigned, damaged) is left to the loop, which rebuilds it from the signed event log or says
    why it cannot; preflight then runs on the next start."""
    from .persist import load_goal

    try:
        goal = load_goal(goal_id, root)
    except GoalkeeperError:
        return Report()
    return refuse_unrunnable_goal(goal, what, resuming=resuming)
