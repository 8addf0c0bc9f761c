"""What every preflight shares: find a command that can never start before it runs.

A command that is split into argv and started without a shell cannot chain
(``pytest -q && ruff check .`` hands ``&&`` to pytest), cannot redirect,
cannot set a variable and does not expand ``$VAR``, ``~`` or ``*``; a program
that is not on ``PATH`` fails every time it is started. These checks find
such commands where they are written (a ``--until``, a maker, a spec's
observers and actions) and say what to write instead.

This module holds what every preflight shares (:class:`Problem`,
:class:`Report`, the shell-syntax scan, the program lookup with a "did you
mean"). It sits with the process runner, below both users: the checks of a
GOAP spec are in ``runtime/preflight.py``, those of a goal in
``convergence/preflight.py``, and each raises its refusal as a ConfigError. Nothing here runs a command of the user's:
lookups read ``PATH`` and the file system, and a Python module is looked up
with ``importlib.util.find_spec`` in a child interpreter.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "Note",
    "Problem",
    "Report",
    "Severity",
    "find_program",
    "module_available",
    "shell_syntax",
    "suggest_program",
]

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that will not work: where it is written, what is wrong, and the fix."""

    code: str
    where: str
    message: str
    fix: str = ""
    severity: Severity = "error"
    line: int | None = None

    def text(self) -> str:
        loc = f"{self.where} (line {self.line})" if self.line else self.where
        return f"{loc}: {self.message}" + (f"\n    fix: {self.fix}" if self.fix else "")

    def dump(self) -> dict[str, Any]:
        return {"code": self.code, "where": self.where, "line": self.line, "severity": self.severity,
                "message": self.message, "fix": self.fix}


@dataclass(frozen=True, slots=True)
class Note:
    """Something preflight found fine, said so the user can check it (how a command resolves)."""

    where: str
    text: str

    def dump(self) -> dict[str, str]:
        return {"where": self.where, "text": self.text}


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def extend(self, other: Report) -> Report:
        self.problems += other.problems
        self.notes += other.notes
        return self

    def note(self, where: str, text: str) -> None:
        self.notes.append(Note(where, text))

    def refusal(self, what: str) -> str:
        """The message of a refusal: every error, each with its fix."""
        errs = self.errors
        head = f"{what}: {len(errs)} problem{'s' if len(errs) != 1 else ''} would make it fail every time"
        return head + "".join("\n  " + p.text().replace("\n", "\n  ") for p in errs)

    def dump(self) -> dict[str, Any]:
        return {"ok": not self.errors, "problems": [p.dump() for p in self.problems],
                "notes": [n.dump() for n in self.notes]}


# --- shell syntax in a command that no shell will read ----------------------------------------

_CHAIN = ("&&", "||", ";")
_OPS = ("&&", "||", "|&", ">>", "&>", "2>", "$(", ";", "|", ">", "<", "&", "`")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_VARREF = re.compile(r"\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)")
SHELL_BUILTINS = frozenset({"cd", "export", "source", ".", "set", "unset", "alias", "if", "for", "while",
                            "then", "fi", "do", "done", "case", "esac", "function", "ulimit", "umask"})
LIST_OPERATORS = frozenset({"&&", "||", "|", ";", ">", ">>", "<", "2>", "2>&1", "&>", "|&", "&"})


@dataclass(frozen=True, slots=True)
class ShellSyntax:
    """What a shell would have read in a command string: operators, variables, globs, ``~``."""

    operators: list[str]
    variables: list[str]
    globs: list[str]
    tilde: bool
    assignment: str | None

    @property
    def chains_only(self) -> bool:
        return bool(self.operators) and all(op in _CHAIN for op in self.operators)


def _closing_backtick(text: str, i: int) -> int:
    j = text.find("`", i + 1)
    return j if j >= 0 else len(text)


def _scan(text: str) -> tuple[list[str], list[str], bool]:
    """Unquoted operators (``$(`` and backticks also inside double quotes), variable references
    outside single quotes, and whether an unquoted glob character appears."""
    ops: list[str] = []
    varrefs: list[str] = []
    glob = False
    quote: str | None = None
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if quote == "'":
            quote = None if c == "'" else quote
            i += 1
            continue
        if c == "\\":
            i += 2
            continue
        if c == "$":
            m = _VARREF.match(text, i)
            if m:
                varrefs.append(m.group(0))
                i = m.end()
                continue
        if quote == '"':
            if c == '"':
                quote = None
            elif c == "`" or text.startswith("$(", i):
                ops.append("`" if c == "`" else "$(")
                if c == "`":  # a substitution's closing backtick is not another one
                    i = _closing_backtick(text, i)
            i += 1
            continue
        if c in "'\"":
            quote = c
            i += 1
            continue
        if c in "*?[":
            glob = True
        at_word_start = i == 0 or text[i - 1].isspace()
        for op in _OPS:
            if text.startswith(op, i) and (op != "2>" or at_word_start):
                ops.append(op)
                i = _closing_backtick(text, i) + 1 if op == "`" else i + len(op)
                break
        else:
            i += 1
    return ops, varrefs, glob


def shell_syntax(command: str | Sequence[str]) -> ShellSyntax:
    """Shell syntax in ``command``. A string is scanned with its quoting; in an argv list only
    items that are exactly an operator count (an item is always one argument)."""
    if isinstance(command, str):
        ops, varrefs, glob = _scan(command)
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        tilde = any(w.startswith("~") for w in words)
        globs = [w for w in words if glob and any(ch in w for ch in "*?[")]
    else:
        words = list(command)
        ops = [w for w in words if w in LIST_OPERATORS]
        varrefs = [m.group(0) for w in words for m in _VARREF.finditer(w)]
        globs, tilde = [], False
    assignment = words[0] if words and _ASSIGN.match(words[0]) else None
    return ShellSyntax(ops, varrefs, globs, tilde, assignment)


def split_chain(command: str) -> list[str]:
    """``a && b ; c`` -> ``["a", "b", "c"]``, split at unquoted ``&&``, ``||`` and ``;``."""
    parts: list[str] = []
    quote: str | None = None
    cur = ""
    i = 0
    while i < len(command):
        c = command[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                cur += command[i:i + 2]
                i += 2
                continue
            cur += c
            i += 1
            continue
        if c in "'\"":
            quote = c
        elif c == "\\":
            cur += command[i:i + 2]
            i += 2
            continue
        else:
            op = next((o for o in _CHAIN if command.startswith(o, i)), None)
            if op:
                parts.append(cur.strip())
                cur = ""
                i += len(op)
                continue
        cur += c
        i += 1
    parts.append(cur.strip())
    return [p for p in parts if p]


def flag_value(argv: Sequence[str]) -> str:
    """``argv`` as one shell word a user can paste after a flag: ``"sh -c 'a && b'"``."""
    inner = shlex.join(argv)
    if not any(ch in inner for ch in '"\\$`!'):
        return f'"{inner}"'
    return shlex.quote(inner)


def shell_problems(command: str | Sequence[str], where: str, *, flag: str, env_flag: str | None = None,
                   severity: Severity = "error") -> list[Problem]:
    """Problems a command written for a shell has when no shell runs it; each fix names the flag
    to write instead (``--until``, ``--maker``, a spec key)."""
    syn = shell_syntax(command)
    text = command if isinstance(command, str) else shlex.join(command)
    out: list[Problem] = []
    if syn.operators:
        ops = ", ".join(dict.fromkeys(syn.operators))
        if syn.chains_only and isinstance(command, str) and flag == "--until":
            parts = split_chain(command)
            fix = "give each command its own condition: " + " ".join(f"{flag} {shlex.quote(p)}" for p in parts)
            fix += f" (or, to run it in a shell on purpose: {flag} {flag_value(['sh', '-c', text])})"
        else:
            fix = f"to run it in a shell on purpose, say so: {flag} {flag_value(['sh', '-c', text])}"
        out.append(Problem("shell-operator", where,
                           f"{text!r} uses shell syntax ({ops}), but it runs without a shell: the program would "
                           "get these as plain arguments", fix, severity))
    if syn.assignment:
        var = syn.assignment.split("=", 1)[0]
        fix = (f"pass it with {env_flag} {syn.assignment}" if env_flag
               else f"use env: {flag} {flag_value(['env', *shlex.split(text)])}")
        out.append(Problem("shell-assignment", where,
                           f"{text!r} starts with the assignment {syn.assignment!r}; without a shell that is "
                           f"taken as the program name, and {var} is never set", fix, severity))
    if syn.variables and not syn.operators:
        names = ", ".join(dict.fromkeys(syn.variables))
        out.append(Problem("shell-variable", where,
                           f"{text!r} mentions {names}; no shell expands it, so the program gets the text "
                           "as written", f"write the value itself, or run it in a shell: {flag} "
                           f"{flag_value(['sh', '-c', text])}", "warning"))
    if (syn.tilde or syn.globs) and not syn.operators:
        what = "~" if syn.tilde else ", ".join(syn.globs[:3])
        out.append(Problem("shell-expansion", where,
                           f"{text!r} uses {what}; no shell expands it, so the program gets it literally",
                           "write the full path or the file names, or run it in a shell with sh -c", "warning"))
    return out


# --- programs ----------------------------------------------------------------------------------

# Names a typo is most likely a typo of (the tools goal conditions and specs start most often).
COMMON_PROGRAMS = ("pytest", "python", "python3", "ruff", "mypy", "coverage", "flake8", "pylint", "black",
                   "tox", "nox", "npm", "npx", "pnpm", "yarn", "node", "cargo", "go", "make", "git", "sh",
                   "bash", "curl", "docker", "uv", "pip", "eslint", "tsc", "jest", "vitest")


def _path_programs(path_env: str | None, limit: int = 20_000) -> set[str]:
    names: set[str] = set()
    for d in (path_env or os.defpath).split(os.pathsep):
        if not d or not os.path.isabs(d):
            continue
        try:
            with os.scandir(d) as it:
                for e in it:
                    names.add(e.name)
                    if len(names) >= limit:
                        return names
        except OSError:
            continue
    return names


def suggest_program(name: str, path_env: str | None) -> str | None:
    """The program ``name`` is probably a typo of (``pytset`` -> ``pytest``), or None."""
    base = Path(name).name
    for pool in (COMMON_PROGRAMS, sorted(_path_programs(path_env))):
        m = difflib.get_close_matches(base, pool, n=1, cutoff=0.75)
        if m and m[0] != base:
            return m[0]
    return None


def find_program(name: str, cwd: Path, env: Mapping[str, str]) -> str | None:
    """Where ``name`` would be started from: a path (relative to ``cwd``) or ``PATH``."""
    if os.sep in name:
        p = Path(name) if os.path.isabs(name) else cwd / name
        return str(p) if p.is_file() and os.access(p, os.X_OK) else None
    return shutil.which(name, path=env.get("PATH", os.defpath))


_FIND_SPEC = ("import importlib.util, sys\n"
              "try:\n    ok = importlib.util.find_spec(sys.argv[1]) is not None\n"
              "except (ImportError, ValueError):\n    ok = False\n"
              "sys.exit(0 if ok else 3)\n")


def module_available(python: str, module: str, cwd: Path | None = None) -> bool | None:
    """Can ``python`` import ``module`` (from ``cwd``)? None when the interpreter cannot be asked."""
    try:
        res = subprocess.run([python, "-c", _FIND_SPEC, module], cwd=str(cwd) if cwd else None,
                             capture_output=True, timeout=30, stdin=subprocess.DEVNULL,
                             env={"PATH": os.environ.get("PATH", os.defpath)})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return {0: True, 3: False}.get(res.returncode)


def not_found(name: str, where: str, env: Mapping[str, str], *, severity: Severity = "error",
              hint: str = "") -> Problem:
    guess = suggest_program(name, env.get("PATH"))
    msg = f"{name!r} cannot be started: " + ("no such file" if os.sep in name else "not found on PATH")
    fix = f"did you mean {guess!r}? " if guess else ""
    fix += hint or ("install it, or give its full path" if os.sep not in name else "check the path")
    return Problem("not-found", where, msg, fix, severity)
