"""Stopping conditions inferred from the workspace when ``goal new`` is given no ``--until``.

"Make all tests pass" means the project's own test command. The objective
says which kinds of check are wanted (tests, lint, types, coverage, build;
tests when it names none), the workspace says how the project runs them:

* Python: pytest (its config in any of the files pytest reads, a
  ``conftest.py``, or test files importing it), else unittest; ruff, flake8
  and mypy from their config; coverage from a ``fail_under`` setting;
* Rust (``Cargo.toml``), Go (``go.mod``), JavaScript (``package.json``
  scripts, run with the package manager its lockfile names; an eslint
  config or a ``tsconfig.json``);
* ``make`` targets (``test``, ``check``, ``lint``, ``build``) when nothing
  more direct is there.

Per kind the first usable candidate wins, in that order: a tool goalkeeper
can seal (pytest, ruff, coverage, mypy) beats one it can only judge by exit
code (``make test``). A candidate whose program is not installed is skipped
and said so. Detection reads a bounded number of files and starts nothing
except the lookup of whether a Python tool is importable.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .goal import StoppingCondition

__all__ = ["KINDS", "Candidate", "Inference", "infer_conditions", "wanted_kinds"]

KINDS = ("tests", "lint", "types", "coverage", "build")
_TYPE = {"tests": "test_pass", "lint": "lint_clean", "types": "lint_clean", "coverage": "coverage_threshold",
         "build": "build_pass"}
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "node_modules", "__pycache__",
                        ".tox", ".nox", "build", "dist", "target", ".mypy_cache", ".ruff_cache", ".pytest_cache",
                        "site-packages", ".goalkeeper", ".idea", ".vscode"})
_MAX_READ = 1 << 20
_MAX_ENTRIES = 20_000
_NPM_PLACEHOLDER = "no test specified"


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str
    command: str
    evidence: str
    threshold: float | None = None
    condition_type: str | None = None  # when the kind's usual type would misjudge this tool

    @property
    def type(self) -> str:
        return self.condition_type or _TYPE[self.kind]

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "command": self.command, "type": self.type,
                               "evidence": self.evidence}
        if self.threshold is not None:
            out["threshold"] = self.threshold
        return out


@dataclass(frozen=True, slots=True)
class Inference:
    wanted: tuple[str, ...]
    chosen: tuple[Candidate, ...]
    found: tuple[Candidate, ...]
    skipped: tuple[tuple[Candidate, str], ...] = ()
    unmet: tuple[tuple[str, str], ...] = ()  # (kind, why nothing fits)
    damaged: tuple[str, ...] = ()  # config files that exist but cannot be parsed (what they configure was not seen)

    def conditions(self) -> list[StoppingCondition]:
        return [StoppingCondition.model_validate({"type": c.type, "command": c.command, "threshold": c.threshold})
                for c in self.chosen]

    def source(self) -> dict[str, Any]:
        """What goes in the goal's ``source.inferred``: the conditions were not written by a person."""
        return {"wanted": list(self.wanted), "conditions": [c.dump() for c in self.chosen]}

    def explain(self) -> list[str]:
        lines = [f"inferred --until {shlex.quote(c.command)} ({c.type}{_thr(c)}): {c.evidence}" for c in self.chosen]
        chosen = {c.command for c in self.chosen}
        for c in self.found:
            if c.command not in chosen and c.kind in self.wanted and all(c is not s for s, _ in self.skipped):
                lines.append(f"  also found {c.command!r} ({c.evidence}); pass --until to use it instead")
        for c, why in self.skipped:
            lines.append(f"  skipped {c.command!r} ({c.evidence}): {why}")
        for kind, why in self.unmet:
            lines.append(f"  no {kind} check: {why}")
        lines += [f"  could not read {d}; what it configures was not seen" for d in self.damaged]
        return lines


def _thr(c: Candidate) -> str:
    return f", threshold {c.threshold:g}%" if c.threshold is not None else ""


# --- what the objective asks for -------------------------------------------------------------

_STRONG: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tests", ("test", "pass", "green", "failing", "regress", "unittest", "pytest")),
    ("lint", ("lint", "ruff", "flake8", "eslint", "clippy", "pylint", "style", "warning")),
    ("types", ("typecheck", "type-check", "typing", "typed", "mypy", "pyright", "tsc")),
    ("coverage", ("coverage", "covered")),
    ("build", ("build", "compil")),
)
_TYPE_WORDS = frozenset({"type", "types"})


def wanted_kinds(objective: str) -> tuple[str, ...]:
    """The kinds of check an objective names; tests when it names none ("fix the bug")."""
    words = re.findall(r"[a-z][a-z0-9-]*", objective.lower())
    kinds = [kind for kind, stems in _STRONG if any(w.startswith(s) for w in words for s in stems)]
    if "types" not in kinds and any(w in _TYPE_WORDS for w in words):
        kinds.append("types")
    if "coverage" in kinds and "tests" not in kinds:
        kinds.insert(0, "tests")  # coverage of failing tests proves nothing
    ordered = tuple(k for k in KINDS if k in kinds)
    return ordered or ("tests",)


# --- reading the workspace (bounded, never following links out) ------------------------------

def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.is_symlink():
            return None
        with open(path, "rb") as f:
            return f.read(_MAX_READ).decode("utf-8", errors="replace")
    except OSError:
        return None


def _toml(path: Path) -> dict[str, Any]:
    text = _read(path)
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):  # nested thousands deep, tomllib recurses out
        return {}


def _damaged(ws: Path) -> list[str]:
    """``file (line N: why)`` for each config file detection reads that exists but does not parse."""
    out = []
    for name, kind in (("pyproject.toml", "toml"), ("setup.cfg", "ini"), ("tox.ini", "ini"),
                       ("package.json", "json"), (".coveragerc", "ini")):
        text = _read(ws / name)
        if text is None:
            continue
        try:
            if kind == "toml":
                tomllib.loads(text)
            elif kind == "json":
                json.loads(text)
            else:
                configparser.ConfigParser(interpolation=None, strict=False).read_string(text)
        except (tomllib.TOMLDecodeError, ValueError, configparser.Error) as e:
            out.append(f"{name} ({str(e).splitlines()[0][:160]})")
        except RecursionError:
            out.append(f"{name} (nested too deep to read)")
    return out


def _ini(path: Path) -> configparser.ConfigParser | None:
    text = _read(path)
    if text is None:
        return None
    cp = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        cp.read_string(text)
    except configparser.Error:
        return None
    return cp


def _dig(data: dict[str, Any], *keys: str) -> Any:
    cur: Any = data
    for k in keys:
        if not isinstance(cur, dict):
            return None
        cur = cur.get(k)
    return cur


def _walk(ws: Path, max_depth: int = 4) -> Iterator[Path]:
    """Files under ``ws`` to a small depth, skipping environments, caches and VCS dirs."""
    count = 0
    stack = [(ws, 0)]
    while stack:
        d, depth = stack.pop()
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        if any(e.name == "pyvenv.cfg" for e in entries) and d != ws:
            continue
        for e in entries:
            count += 1
            if count > _MAX_ENTRIES:
                return
            if e.is_symlink():
                continue
            if e.is_dir():
                if depth < max_depth and e.name not in _SKIP_DIRS and not e.name.endswith(".egg-info"):
                    stack.append((Path(e.path), depth + 1))
            elif e.is_file():
                yield Path(e.path)


@dataclass
class _Workspace:
    root: Path
    pyproject: dict[str, Any] = field(default_factory=dict)
    setup_cfg: configparser.ConfigParser | None = None
    tox_ini: configparser.ConfigParser | None = None
    test_files: list[Path] = field(default_factory=list)
    has_python: bool = False

    @classmethod
    def read(cls, root: Path) -> _Workspace:
        w = cls(root, _toml(root / "pyproject.toml"), _ini(root / "setup.cfg"), _ini(root / "tox.ini"))
        for p in _walk(root):
            if p.suffix == ".py":
                w.has_python = True
                n = p.name
                if n.startswith("test_") or n.endswith("_test.py") or n == "tests.py":
                    w.test_files.append(p)
        return w

    def has(self, *names: str) -> str | None:
        return next((n for n in names if (self.root / n).is_file()), None)

    def section(self, cfg: configparser.ConfigParser | None, name: str) -> bool:
        return cfg is not None and cfg.has_section(name)


def _rel(w: _Workspace, p: Path) -> str:
    return str(p.relative_to(w.root)).replace(os.sep, "/")


# --- Python ------------------------------------------------------------------------------------

def _pytest_evidence(w: _Workspace) -> str | None:
    name = w.has("pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml")
    if name:
        return f"{name} configures pytest"
    if _dig(w.pyproject, "tool", "pytest") is not None:
        return "pyproject.toml has [tool.pytest]"
    if w.section(w.setup_cfg, "tool:pytest"):
        return "setup.cfg has [tool:pytest]"
    if w.section(w.tox_ini, "pytest"):
        return "tox.ini has [pytest]"
    conf = w.has("conftest.py", "tests/conftest.py", "test/conftest.py")
    if conf:
        return f"{conf} is a pytest conftest"
    for p in w.test_files[:50]:
        text = _read(p) or ""
        if re.search(r"^\s*(import pytest|from pytest\b|from _pytest\b)", text, re.M):
            return f"{_rel(w, p)} imports pytest"
    return None


def _unittest_command(w: _Workspace) -> tuple[str, str] | None:
    styled = []
    for p in w.test_files[:50]:
        text = _read(p) or ""
        if re.search(r"^\s*(import unittest|from unittest\b)", text, re.M):
            styled.append(p)
    if not styled:
        return None
    at_root = [p for p in styled if p.parent == w.root]
    if at_root or not (w.root / "tests").is_dir():
        return "python -m unittest discover", f"{_rel(w, styled[0])} uses unittest"
    top = " -t ." if (w.root / "tests" / "__init__.py").is_file() else ""
    return f"python -m unittest discover -s tests{top}", f"{_rel(w, styled[0])} uses unittest"


def _fail_under(w: _Workspace) -> tuple[float, str] | None:
    val = _dig(w.pyproject, "tool", "coverage", "report", "fail_under")
    if isinstance(val, int | float) and not isinstance(val, bool):
        return float(val), "pyproject.toml [tool.coverage.report] fail_under"
    for name, section in ((".coveragerc", "report"), ("setup.cfg", "coverage:report"), ("tox.ini", "coverage:report")):
        cfg = _ini(w.root / name) if name == ".coveragerc" else (w.setup_cfg if name == "setup.cfg" else w.tox_ini)
        if cfg is not None and cfg.has_option(section, "fail_under"):
            try:
                return float(cfg.get(section, "fail_under")), f"{name} [{section}] fail_under"
            except ValueError:
                continue
    data = _toml(w.root / ".coveragerc.toml")
    val = _dig(data, "report", "fail_under") or _dig(data, "tool", "coverage", "report", "fail_under")
    if isinstance(val, int | float) and not isinstance(val, bool):
        return float(val), ".coveragerc.toml fail_under"
    return None


def _python(w: _Workspace, objective: str) -> list[Candidate]:
    out: list[Candidate] = []
    why = _pytest_evidence(w)
    if why:
        out.append(Candidate("tests", "pytest -q", why))
    elif w.test_files:
        ut = _unittest_command(w)
        if ut:
            out.append(Candidate("tests", ut[0], ut[1]))
        else:
            out.append(Candidate("tests", "pytest -q", f"{_rel(w, w.test_files[0])} looks like a pytest test file"))
    ruff = w.has("ruff.toml", ".ruff.toml")
    if ruff or _dig(w.pyproject, "tool", "ruff") is not None:
        out.append(Candidate("lint", "ruff check .", f"{ruff} configures ruff" if ruff
                             else "pyproject.toml has [tool.ruff]"))
    flake8 = w.has(".flake8")
    if flake8 or w.section(w.setup_cfg, "flake8") or w.section(w.tox_ini, "flake8"):
        out.append(Candidate("lint", "flake8", f"{flake8 or 'setup.cfg/tox.ini'} configures flake8"))
    if w.has_python and not any(c.kind == "lint" for c in out):
        out.append(Candidate("lint", "ruff check .", "the workspace has Python files (ruff with its defaults)"))
    mypy = w.has("mypy.ini", ".mypy.ini")
    if mypy or _dig(w.pyproject, "tool", "mypy") is not None or w.section(w.setup_cfg, "mypy"):
        configured = _dig(w.pyproject, "tool", "mypy", "files") or _dig(w.pyproject, "tool", "mypy", "packages")
        out.append(Candidate("types", "mypy" if configured or mypy else "mypy .",
                             f"{mypy or 'pyproject.toml/setup.cfg'} configures mypy"))
    if w.has("pyrightconfig.json") or _dig(w.pyproject, "tool", "pyright") is not None:
        out.append(Candidate("types", "pyright", "pyright is configured"))
    if any(c.kind == "tests" and c.command == "pytest -q" for c in out):
        fu = _fail_under(w)
        said = re.search(r"(\d+(?:\.\d+)?)\s*%", objective)
        if said:
            out.append(Candidate("coverage", "coverage run -m pytest -q", f"the objective asks for {said.group(0)}",
                                 float(said.group(1))))
        elif fu:
            out.append(Candidate("coverage", "coverage run -m pytest -q", fu[1], fu[0]))
    return out


# --- other ecosystems --------------------------------------------------------------------------

def _node(w: _Workspace) -> list[Candidate]:
    text = _read(w.root / "package.json")
    if text is None:
        return []
    try:
        pkg = json.loads(text)
    except ValueError:
        return []
    if not isinstance(pkg, dict):
        return []
    raw_scripts = pkg.get("scripts")
    scripts: dict[str, Any] = raw_scripts if isinstance(raw_scripts, dict) else {}
    pm_field = str(pkg.get("packageManager") or "")
    if w.has("pnpm-lock.yaml") or pm_field.startswith("pnpm"):
        pm, lock = "pnpm", "pnpm-lock.yaml"
    elif w.has("yarn.lock") or pm_field.startswith("yarn"):
        pm, lock = "yarn", "yarn.lock"
    elif w.has("bun.lockb", "bun.lock") or pm_field.startswith("bun"):
        pm, lock = "bun", "bun.lock"
    else:
        pm, lock = "npm", ""
    via = f" (run with {pm}: {lock})" if lock else ""
    out = []
    test = scripts.get("test")
    if isinstance(test, str) and test.strip() and _NPM_PLACEHOLDER not in test:
        out.append(Candidate("tests", f"{pm} test" if pm != "bun" else "bun run test",
                             f"package.json scripts.test is {test!r}{via}"))
    run = "npm run" if pm == "npm" else f"{pm} run"
    for kind, names in (("lint", ("lint",)), ("types", ("typecheck", "type-check", "types", "tsc")),
                        ("build", ("build",))):
        name = next((n for n in names if isinstance(scripts.get(n), str)), None)
        if name:
            out.append(Candidate(kind, f"{run} {name}", f"package.json scripts.{name}{via}"))
    eslint = w.has("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts",
                   ".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml")
    if eslint or isinstance(pkg.get("eslintConfig"), dict):
        out.append(Candidate("lint", "npx eslint .", f"{eslint or 'package.json eslintConfig'} configures eslint"))
    if w.has("tsconfig.json"):
        out.append(Candidate("types", "npx tsc --noEmit", "tsconfig.json"))
    return out


def _rust(w: _Workspace) -> list[Candidate]:
    if not w.has("Cargo.toml"):
        return []
    # cargo prints one "test result" line per test binary (doc tests last, often 0 of them), and the
    # summary parser reads only the last line: judged by cargo's exit code instead.
    return [Candidate("tests", "cargo test", "Cargo.toml", condition_type="custom_command"),
            Candidate("lint", "cargo clippy --all-targets -- -D warnings", "Cargo.toml"),
            Candidate("types", "cargo check --all-targets", "Cargo.toml"),
            Candidate("build", "cargo build", "Cargo.toml")]


def _go(w: _Workspace) -> list[Candidate]:
    if not w.has("go.mod"):
        return []
    lint = w.has(".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json")
    return [Candidate("tests", "go test ./...", "go.mod"),
            Candidate("lint", "golangci-lint run" if lint else "go vet ./...", lint or "go.mod"),
            Candidate("types", "go vet ./...", "go.mod"),
            Candidate("build", "go build ./...", "go.mod")]


_TARGET = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*:(?![=:])", re.M)


def _make(w: _Workspace) -> list[Candidate]:
    name = w.has("GNUmakefile", "makefile", "Makefile")
    text = _read(w.root / name) if name else None
    if not text:
        return []
    targets = set(_TARGET.findall(text))
    out = []
    for kind, names in (("tests", ("test", "tests", "check")), ("lint", ("lint",)),
                        ("types", ("typecheck", "type-check", "mypy")), ("build", ("build", "all"))):
        t = next((n for n in names if n in targets), None)
        if t:
            out.append(Candidate(kind, f"make {t}", f"{name} has a {t!r} target"))
    return out


# --- choosing ----------------------------------------------------------------------------------

Usable = Callable[[Candidate], str | None]


def infer_conditions(workspace: Path, objective: str, usable: Usable | None = None) -> Inference:
    """The conditions this workspace's own tooling gives for ``objective``.

    ``usable(candidate)`` says why a candidate cannot run here (its program
    is missing), or None; the default resolves it the way the checks will.
    Raises ``ConfigError`` naming what was looked for when nothing fits.
    """
    ws = workspace.resolve()
    check = usable or _default_usable(ws)
    w = _Workspace.read(ws)
    found = [*_python(w, objective), *_rust(w), *_go(w), *_node(w), *_make(w)]
    wanted = wanted_kinds(objective)
    chosen: list[Candidate] = []
    skipped: list[tuple[Candidate, str]] = []
    unmet: list[tuple[str, str]] = []
    for kind in wanted:
        pick = None
        for c in (c for c in found if c.kind == kind):
            why = check(c)
            if why is None:
                pick = c
                break
            skipped.append((c, why))
        if pick is not None:
            chosen.append(pick)
        elif kind == "coverage" and any(c.kind == "tests" for c in chosen):
            unmet.append((kind, "no threshold: set fail_under in the coverage config, or say it in the objective "
                                "(e.g. 'coverage to 90%')"))
        else:
            unmet.append((kind, f"nothing in {ws} runs {kind}"))
    inf = Inference(wanted, tuple(chosen), tuple(found), tuple(skipped), tuple(unmet), tuple(_damaged(ws)))
    if not chosen:
        raise ConfigError(_refusal(ws, inf))
    return inf


def _refusal(ws: Path, inf: Inference) -> str:
    kinds = " and ".join(inf.wanted)
    lines = [f"no --until given, and nothing in {ws} says how to check {kinds}"]
    for c, why in inf.skipped:
        lines.append(f"  found {c.command!r} ({c.evidence}) but {why}")
    others = [c for c in inf.found if c.kind not in inf.wanted]
    if others:
        lines.append("  found only: " + ", ".join(f"{c.command!r} ({c.kind})" for c in others[:5]))
    lines += [f"  could not read {d}: fix it, or pass --until" for d in inf.damaged]
    lines.append("  looked for: pytest/unittest tests and their config, ruff/flake8/mypy config, coverage "
                 "fail_under, package.json scripts, Cargo.toml, go.mod, Makefile targets")
    lines.append("  fix: pass the check yourself, e.g. --until 'pytest -q' (repeatable)")
    return "\n".join(lines)


def _default_usable(ws: Path) -> Usable:
    from .preflight import preflight_conditions

    env = dict(os.environ)

    def usable(c: Candidate) -> str | None:
        rep = preflight_conditions([StoppingCondition.model_validate({"type": c.type, "command": c.command,
                                                                      "threshold": c.threshold})], ws, env)
        return rep.errors[0].message if rep.errors else None

    return usable
