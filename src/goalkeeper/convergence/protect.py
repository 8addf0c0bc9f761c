"""What a maker may not change: the checks' inputs, compared with the goal's baseline.

Two kinds of protected path:

* **seal** paths steer how a check runs. Every name the common test, lint
  and coverage tools read their configuration from, at any depth (a
  ``ruff.toml`` in a subfolder applies to that folder), interpreter start-up
  hooks, plugin entry points, ignore files, CI files, and the user's
  ``--protect`` globs. Adding, editing or deleting one rejects the iteration.
* **test** paths hold the tests themselves. Editing or deleting a baseline
  test rejects the iteration; adding a new test file is allowed (it runs
  with the rest, and may not add skips: see :mod:`.scan`). A new
  ``conftest.py`` in a folder of new tests only (no baseline test below it)
  is allowed when it only shares fixtures: no ``pytest_*`` hook (pytest calls
  a conftest's collection hooks with every test, wherever the file is), no
  ``pytest_plugins``, no ``collect_ignore``. A new ``.gitignore`` in a new
  folder that holds no code (a report folder such as coverage.py's ``htmlcov/``)
  hides nothing a check reads, and is allowed too.

``allowEdit`` globs exempt paths a goal legitimately changes (e.g.
``pyproject.toml`` to add a dependency); the exemption is recorded in the goal.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .tree import Tree, is_cache

__all__ = [
    "DEFAULT_TESTS",
    "SEAL_NAMES",
    "SEAL_PATTERNS",
    "TOOL_CONFIGS",
    "Finding",
    "classify",
    "glob_match",
    "output_folder",
    "protected_findings",
]

# Where each tool reads configuration from (file names, any directory).
TOOL_CONFIGS: Mapping[str, tuple[str, ...]] = {
    "pytest": ("pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "pyproject.toml", "tox.ini",
               "setup.cfg", "conftest.py"),
    "coverage": (".coveragerc", ".coveragerc.toml", "setup.cfg", "tox.ini", "pyproject.toml"),
    "ruff": ("ruff.toml", ".ruff.toml", "pyproject.toml"),
    "flake8": (".flake8", "setup.cfg", "tox.ini"),
    "pylint": (".pylintrc", "pylintrc", ".pylintrc.toml", "pyproject.toml", "setup.cfg"),
    "mypy": ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"),
    "pyright": ("pyrightconfig.json",),
    "unittest/nose": ("nose.cfg", ".noserc", "nose2.cfg", "unittest.cfg"),
    "python start-up": ("sitecustomize.py", "usercustomize.py", "pyvenv.cfg", "entry_points.txt"),
    "node": ("package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "tsconfig.json",
             ".babelrc", ".mocharc.json", ".mocharc.yml", ".mocharc.js", ".nycrc", ".nycrc.json", ".c8rc.json",
             ".eslintignore", ".prettierrc"),
    "rust/go": ("Cargo.toml", "go.mod", "rust-toolchain.toml", "clippy.toml", ".clippy.toml", "rustfmt.toml",
                ".golangci.yml", ".golangci.yaml", ".golangci.toml"),
    "ruby/jvm": (".rspec", ".rubocop.yml", "build.gradle", "pom.xml"),
    "build": ("Makefile", "makefile", "GNUmakefile", "noxfile.py", "justfile", "Taskfile.yml"),
    "ignore rules": (".gitignore", ".gitattributes", ".ignore", ".rgignore", ".git/info/exclude"),
}
SEAL_NAMES = frozenset(n for names in TOOL_CONFIGS.values() for n in names if "/" not in n)
SEAL_PATTERNS = (
    "*.pth", "jest.config.*", "vitest.config.*", "karma.conf.*", ".eslintrc*", "eslint.config.*",
    "tsconfig.*.json", "babel.config.*", "playwright.config.*", "cypress.config.*", ".mocharc.*",
    ".git/info/exclude", ".git/config", ".git/hooks/**", ".cargo/config", ".cargo/config.toml",
    ".github/**", ".gitlab-ci.yml", ".gitlab/**", ".circleci/**", "azure-pipelines.yml", "Jenkinsfile",
    ".travis.yml", "bitbucket-pipelines.yml", ".buildkite/**", ".pre-commit-config.yaml",
)
DEFAULT_TESTS = ("test_*.py", "*_test.py", "tests.py", "tests/**", "test/**", "testing/**", "*.test.*", "*.spec.*",
                 "__tests__/**", "spec/**")


@lru_cache(maxsize=512)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    body = "".join(out)
    # gitignore-like: a pattern without "/" (or only a trailing "/**") matches at any depth
    anchored = "/" in pattern.rstrip("/*") or pattern.startswith("/")
    return re.compile(("^" if anchored else "^(?:.*/)?") + body.lstrip("/") + "$")


def glob_match(path: str, patterns: Iterable[str]) -> bool:
    return any(_glob_regex(p).match(path) for p in patterns)


def classify(rel: str, *, protect: Iterable[str] = (), tests: Iterable[str] = DEFAULT_TESTS,
             allow: Iterable[str] = ()) -> str | None:
    """``"seal"``, ``"test"`` or None for a workspace-relative path."""
    return _classify(rel, tuple(protect), tuple(tests), tuple(allow))


@lru_cache(maxsize=1 << 16)  # called for every file of the tree on every iteration
def _classify(rel: str, protect: tuple[str, ...], tests: tuple[str, ...], allow: tuple[str, ...]) -> str | None:
    if is_cache(rel) or glob_match(rel, allow):
        return None
    name = rel.rsplit("/", 1)[-1]
    if name in SEAL_NAMES or glob_match(rel, SEAL_PATTERNS) or glob_match(rel, protect):
        return "seal"
    if glob_match(rel, tests):
        return "test"
    return None


@dataclass(frozen=True, slots=True)
class Finding:
    """One reason to reject an iteration; ``kind`` groups them (protected, suppression, ...)."""

    kind: str
    path: str
    detail: str
    line: int | None = None

    def text(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}: {self.detail}"
        return self.detail if not self.path or self.path in self.detail else f"{self.detail} ({self.path})"


def protected_findings(baseline: Tree, now: Tree, *, protect: Iterable[str] = (),
                       tests: Iterable[str] = DEFAULT_TESTS, allow: Iterable[str] = (),
                       read: Callable[[str], bytes | None] | None = None) -> list[Finding]:
    """Seal paths added, edited or deleted, and baseline tests edited or deleted, since the baseline.

    ``read(rel)`` gives a file's current bytes; with it, a new fixture-only ``conftest.py`` beside
    new tests is allowed (see the module's docstring).
    """
    protect, tests, allow = tuple(protect), tuple(tests), tuple(allow)
    found = []
    for rel in sorted(set(baseline.files) | set(now.files)):
        old, new = baseline.files.get(rel), now.files.get(rel)
        if old == new:
            continue
        kind = _classify(rel, protect, tests, allow)
        if kind is None:
            continue
        if old is None:
            if (kind == "seal" and read is not None and rel.endswith("/conftest.py") and not glob_match(rel, protect)
                    and not _governs_baseline_tests(rel, baseline, tests) and _fixtures_only(read(rel))):
                continue  # shares fixtures with new tests only; scanned like a test file (see .scan)
            if kind == "seal" and rel.endswith("/.gitignore") and output_folder(rel, baseline, now):
                continue  # a tool's report folder ignoring itself (coverage.py's htmlcov/): it hides no code
            if kind == "seal":
                found.append(Finding("protected", rel, f"added {_what(rel)} {rel}"))
            elif rel.rsplit("/", 1)[-1] == "__init__.py" and _governs_baseline_tests(rel, baseline, tests):
                # A package marker above baseline tests changes their module names and what they import;
                # one in a folder of new tests only affects the new tests (which run in their own session).
                found.append(Finding("protected", rel, f"added {rel}: it changes how the baseline tests below it "
                                                       "are imported; put new test modules in a new folder"))
        elif new is None:
            found.append(Finding("protected", rel, f"deleted protected {kind} file {rel}"))
        else:
            found.append(Finding("protected", rel, f"edited protected {kind} file {rel}"))
    return found


def output_folder(ignore: str, baseline: Tree, now: Tree) -> bool:
    """A new folder (no baseline file below it) that holds no code any check reads."""
    folder = ignore.rsplit("/", 1)[0] + "/"
    return (not any(rel.startswith(folder) for rel in baseline.files)
            and not any(rel.startswith(folder) and rel.endswith((".py", ".pyi", ".pyw", ".pth", ".ipynb", ".so"))
                        for rel in now.files))


def _fixtures_only(data: bytes | None) -> bool:
    """A conftest that defines no hook, plugin list or collection filter (fixtures, helpers, imports)."""
    if data is None or len(data) > 1 << 20:
        return False
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name.startswith("pytest_"):
            return False
        names = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)]
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and any(
                n.startswith(("pytest_", "collect_ignore")) for n in names):
            return False
        if isinstance(node, ast.Name) and node.id.startswith(("pytest_", "collect_ignore")):
            return False  # a hook or plugin list made some other way (globals(), setattr, a loop)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(
                ("pytest", "collect_ignore")):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "globals", "vars", "locals", "setattr", "exec", "eval", "__import__"):
            return False  # names made at run time: a hook spelled in pieces
        if isinstance(node, ast.Attribute) and node.attr in ("pluginmanager", "register", "hook"):
            return False  # a plugin registered from a fixture
    return True


def _governs_baseline_tests(init: str, baseline: Tree, tests: tuple[str, ...]) -> bool:
    """Whether a new ``init`` sits in a folder holding (at any depth) a test file of the baseline."""
    folder = init.rsplit("/", 1)[0] + "/" if "/" in init else ""
    return any(rel.startswith(folder) and rel != init and _classify(rel, (), tests, ()) == "test"
               for rel in baseline.files)


# Sections of shared config files that steer a check: still sealed when the file is --allow-edit-ed
# (the goal allowed a dependency change, not a change to how the tests, lint or coverage run).
CHECK_TOOLS = ("pytest", "coverage", "ruff", "mypy", "pyright", "pylint", "flake8", "black", "isort", "bandit",
               "codespell", "pydocstyle", "pycodestyle", "tox", "nox", "pytest-cov", "hypothesis")
_INI_SECTIONS = re.compile(r"^(?:tool:)?(?:pytest|coverage(?::.*)?|flake8|mypy(?:-.*)?|pycodestyle|pydocstyle|isort"
                           r"|pylint(?:\..*)?|tox(?::.*)?|testenv(?::.*)?|bandit)$", re.I)


def _toml_sections(text: str) -> dict[str, object] | None:
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None
    raw = data.get("tool")
    tool: dict[str, Any] = raw if isinstance(raw, dict) else {}
    out: dict[str, object] = {f"tool.{k}": v for k, v in tool.items() if k in CHECK_TOOLS}
    raw_hatch = tool.get("hatch")
    hatch: dict[str, Any] = raw_hatch if isinstance(raw_hatch, dict) else {}
    if "envs" in hatch:  # hatch test environments name the test command
        out["tool.hatch.envs"] = hatch["envs"]
    return out


def _ini_sections(text: str) -> dict[str, object] | None:
    import configparser

    cp = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        cp.read_string(text)
    except configparser.Error:
        return None
    return {name: dict(cp.items(name)) for name in cp.sections() if _INI_SECTIONS.match(name)}


def check_sections_changed(rel: str, old: str | None, new: str | None) -> list[str]:
    """The check-steering sections of a shared config file that differ between two versions."""
    name = rel.rsplit("/", 1)[-1]
    parse = _toml_sections if name == "pyproject.toml" else _ini_sections if name in ("setup.cfg", "tox.ini") else None
    if parse is None:
        return []
    a = parse(old) if old is not None else {}
    b = parse(new) if new is not None else {}
    if a is None or b is None:
        return ["(the file does not parse)"]
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def _what(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    for tool, names in TOOL_CONFIGS.items():
        if name in names:
            return f"{tool} config file"
    return "protected file"
