"""The diff, read the way a reviewer reads it: what was added that silences, skips or hides.

Run on every iteration against the goal's baseline, after the maker's
processes are gone and before any check runs. Each finding rejects the
iteration and names ``file:line``:

* **suppressions**: any added comment that switches a linter, type checker
  or coverage tool off for a line, block or file, in every syntax the common
  tools honour, case-insensitive (``# NOQA``, ``# flake8: noqa``,
  ``# pragma: no cover``, ``eslint-disable``, ``//nolint``, ``#[allow(...)]`` ...);
* **skips**: test skips and expected failures in any import form (Python
  is tokenised, so ``from pytest import skip as x`` and ``getattr(pytest,
  "skip")`` are seen and a comment saying "skip blank lines" is not);
* **runner references** in code under test (not test files): importing the
  test runner or reading its environment is how code detects that it is
  being tested or patches the report;
* **opaque code**: bytecode without source, unchecked-hash ``.pyc`` (Python
  trusts them without looking at the source), native modules, and code under test
  that runs text built at run time (``exec``/``eval``/``compile`` of anything but a
  literal: a ``.txt`` file read and run is source no scan reads);
* **answers that equal anything**: an ``__eq__`` that never reads what it is
  compared with, in code under test (every ``assert result == expected`` passes
  on it); these two read the added Python as a tree (:mod:`.scan_ast`);
* **measurement tampering in tests**: a test file that reaches into the live
  coverage measurement or the tracer (``Coverage.current()``, ``add_arcs``,
  ``sys.settrace``) or goalkeeper's probe;
* **shadowing**: a new top-level module (one whose folder is no package, so the
  folder may be on ``sys.path``) named like a standard-library module, a module of
  the checks' own toolchain, or one of the project's own top-level modules (a
  ``tests/shop/`` package is imported instead of ``shop/``, because pytest puts the
  test folder first); a module inside a package shadows nothing;
* **links and special files**: a symlink that leads out of the workspace, a
  FIFO or device;
* **nested git folders**: anything added or changed in a ``.git`` folder below
  the root (its ``info/exclude`` hides files from ruff, and it is no project
  source anyone reviews).

Every file is read as its tool reads it: Python source through its coding
declaration with universal newlines (a ``unicode_escape`` file, lone-CR line
endings), so the scan and the interpreter see the same lines. A file too large
to read is a finding, never a pass.
"""

from __future__ import annotations

import difflib
import importlib.util
import io
import re
import sys
import tokenize
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from .protect import DEFAULT_TESTS, Finding, glob_match
from .scan_ast import RUNNER_MODULES, RUNNER_STRINGS, RUNNER_TEXT, ast_findings
from .tree import Tree, diff_trees, is_cache

__all__ = ["SUPPRESSIONS", "added_lines", "runtime_findings", "scan_changes"]

_C = r"(?:#|//|/\*|<!--|--|;|%|\*)"  # comment openers of the languages we look at
SUPPRESSIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx, re.I)) for name, rx in (
        ("noqa", r"#\s*noqa\b|\bnoqa\s*:"),
        ("flake8/ruff file-level noqa", r"\b(?:flake8|ruff)\s*:\s*noqa"),
        ("pylint disable", r"\bpylint\s*:\s*(?:disable|skip-file|disable-next)"),
        ("type: ignore", r"#\s*type\s*:\s*ignore"),
        ("mypy ignore-errors", r"#\s*mypy\s*:\s*(?:ignore-errors|disable-error-code)"),
        ("pyright ignore", r"\bpyright\s*:\s*(?:ignore|basic|off)"),
        ("pyre ignore", r"\bpyre-(?:ignore|fixme|ignore-all-errors)"),
        ("bandit nosec", r"#\s*nosec\b"),
        ("coverage pragma", r"\bpragma\s*:?\s*no\s*(?:cover|branch)|\bpragma\s*:\s*nocover"),
        ("coverage exclusion", r"\b(?:istanbul|c8|v8|node:coverage)\s+(?:ignore|disable)|\blcov_excl|\bcodecov\s*:\s*ignore"),
        ("eslint disable", r"\beslint-disable|\beslint\s+disable"),
        ("typescript ignore", r"@ts-(?:ignore|nocheck|expect-error)"),
        ("biome/oxlint/jshint ignore", r"\bbiome-ignore|\boxlint-disable|\bjshint\s+ignore|\bjscs\s*:\s*disable"),
        ("go nolint", r"//\s*nolint\b|\blint\s*:\s*ignore"),
        ("rust allow", r"#!?\[\s*(?:allow|cfg_attr\s*\(.*allow)\s*\("),
        ("rubocop disable", r"\brubocop\s*:\s*(?:disable|todo)"),
        ("java suppress", r"@SuppressWarnings\b|\bNOSONAR\b|//\s*CHECKSTYLE\s*:\s*OFF"),
        ("shellcheck disable", r"#\s*shellcheck\s+disable"),
        ("swiftlint/ktlint disable", r"\b(?:swiftlint|ktlint)\s*:\s*disable|@Suppress\("),
    )
)
_SKIP_NAMES = frozenset({
    "skip", "skipif", "xfail", "importorskip", "SkipTest", "skipTest", "expectedFailure", "skipIf",
    "skipUnless", "Skipped", "XFailed", "collect_ignore", "collect_ignore_glob", "pytestmark",
    "pytest_collection_modifyitems", "pytest_ignore_collect", "pytest_deselected",
})
_OTHER_SKIPS = re.compile(
    r"\b(?:it|test|describe|context|suite)\s*\.\s*(?:skip|only|todo|skipIf|runIf)\b|\bx(?:it|describe|test|context)\s*\("
    r"|\bf(?:it|describe)\s*\(|\bt\s*\.\s*Skip\w*\s*\(|#\[\s*ignore\b|@(?:Disabled|Ignore)\b|\bpending\s*\(",
)
# ``sys.modules`` looked up by key (``sys.modules[name]``, ``name in sys.modules``, ``.get``) is an
# everyday cache; enumerated (``for m in sys.modules``, ``list(sys.modules)``, ``.keys()``) it is how
# code finds out which runner imported it without ever spelling the runner's name.
_SYS_MODULES = re.compile(r"\bsys\s*\.\s*modules\b")
_FOR_IN = re.compile(r"\bfor\b[^#]*\bin\s*$")
_MEMBER_IN = re.compile(r"\bin\s*$")
# Test files import the runner by design; what they have no business touching is the measurement
# (the live coverage data, the tracer) and goalkeeper's own probe.
_ADD_DATA = re.compile(r"\.\s*add_(?:arcs|lines|file_tracers)\s*\(")  # coverage data's, in a file naming coverage
_TAMPER_TEXT = re.compile(r"\bCoverage\s*\.\s*current\b"
                          r"|\b(?:sys|threading)\s*\.\s*(?:settrace|setprofile|gettrace|getprofile)\b"
                          r"|\bgk_probe\b|GOALKEEPER_|COVERAGE_(?:FILE|RCFILE|PROCESS)|/proc/self/fd\b")
_NATIVE = (".so", ".pyd", ".dll", ".dylib")
_TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+test|^\s*class\s+Test", re.M)
# The languages whose skip syntax _OTHER_SKIPS knows (prose, notebooks and data are none of them).
_SKIP_LANGS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".go", ".rs", ".java", ".kt", ".kts",
               ".rb", ".swift", ".scala", ".cs", ".php", ".coffee", ".vue", ".svelte")
_DIFF_LIMIT = 2_000_000  # above this, added lines come from a linear multiset diff (difflib is quadratic)
_TEXT_LIMIT = 64 << 20  # a changed file larger than this is not read: a finding, not a pass

Reader = Callable[[str], bytes | None]


def added_lines(old: str | None, new: str) -> list[tuple[int, str]]:
    """(line number, text) of lines in ``new`` that are not in ``old``.

    Lines end at ``\n`` only (the readers normalise ``\r\n`` and ``\r`` first), as Python's
    tokenizer counts them: ``str.splitlines`` would also split at form feeds and other separators
    the interpreter reads as part of a line.
    """
    new_lines = _lines(new)
    if old is None:
        return list(enumerate(new_lines, 1))
    if len(old) + len(new) > _DIFF_LIMIT:
        left: dict[str, int] = {}
        for line in _lines(old):
            left[line] = left.get(line, 0) + 1
        added = []
        for n, line in enumerate(new_lines, 1):
            if left.get(line, 0) > 0:
                left[line] -= 1
            else:
                added.append((n, line))
        return added
    out: list[tuple[int, str]] = []
    sm = difflib.SequenceMatcher(None, _lines(old), new_lines, autojunk=False)
    for tag, _i1, _i2, j1, j2 in sm.get_opcodes():
        if tag in ("replace", "insert"):
            out.extend((j + 1, new_lines[j]) for j in range(j1, j2))
    return out


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()  # the newline that ends the last line starts no line
    return parts


def _decode(data: bytes | None, python: bool = False) -> str | None:
    """The text a tool reads: Python source as the interpreter decodes it (its coding declaration,
    universal newlines), anything else as UTF-8 with its line endings made ``\n``."""
    if data is None or b"\0" in data[:8192]:
        return None
    if python:
        try:
            return importlib.util.decode_source(data)
        except (SyntaxError, LookupError, UnicodeError, ValueError):
            pass  # a coding Python cannot read: the module cannot import either; read it as UTF-8
    return _newlines(data.decode("utf-8", errors="replace"))


def _newlines(text: str) -> str:
    """``\r\n`` and lone ``\r`` as ``\n``: the line ends Python's universal newlines read."""
    return re.sub(r"\r\n?", "\n", text)


def _python_tokens(text: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []


def _in_source_package(rel: str, files: Mapping[str, str]) -> bool:
    """A test-named module inside a package of the code (``shop/test_mode.py``), not a test folder."""
    parts = rel.split("/")
    return (len(parts) > 1 and parts[-1] != "conftest.py" and f"{'/'.join(parts[:-1])}/__init__.py" in files
            and not any(p in ("tests", "test", "testing") for p in parts[:-1]))


def _is_test(rel: str, tests: Iterable[str]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return glob_match(rel, tests) or name == "conftest.py"


def _scan_text(rel: str, old: str | None, new: str, is_test: bool, out: list[Finding],
               colocated: bool = False) -> None:
    """``colocated``: a test-named module inside a source package; it may import the runner, like
    any test, but what it spells (runner names in strings, its environment) is read as code's."""
    lines = added_lines(old, new)
    if not lines:
        return
    wanted = {n for n, _ in lines}
    python = rel.endswith((".py", ".pyi", ".pyw"))
    for n, text in lines:
        for name, rx in SUPPRESSIONS:
            if rx.search(text):
                out.append(Finding("suppression", rel, f"added a {name} suppression", n))
                break
        if rel.endswith(_SKIP_LANGS) and _OTHER_SKIPS.search(text):  # Python's are tokenised below
            out.append(Finding("skip", rel, "added a test skip", n))
        if is_test and (_TAMPER_TEXT.search(text) or (_ADD_DATA.search(text) and "coverage" in new)):
            out.append(Finding("runner", rel, "a test reaches into the coverage measurement, the tracer or "
                                              "goalkeeper's probe", n))
    if not python:
        return
    toks = _join_strings(_python_tokens(new))
    for i, tok in enumerate(toks):
        row = tok.start[0]
        if row not in wanted:
            continue
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if tok.type == tokenize.NAME and tok.string in _SKIP_NAMES:
            called = nxt is not None and nxt.string in ("(", "=", ".")
            dotted = prev is not None and prev.string == "."
            imported = _on_import_line(toks, i)
            decorated = prev is not None and prev.string == "@"
            if called or dotted or imported or decorated:
                out.append(Finding("skip", rel, f"added a test skip ({tok.string})", row))
        elif tok.type == tokenize.STRING and tok.string.strip("'\"rbuRBU") in _SKIP_NAMES:
            out.append(Finding("skip", rel, f"added a test skip by name ({tok.string})", row))
        elif not is_test and tok.type == tokenize.NAME and tok.string in ("import", "from") and nxt is not None:
            mod = nxt.string.split(".")[0]
            if mod in RUNNER_MODULES:
                out.append(Finding("runner", rel, f"code under test imports the test runner ({nxt.string})", row))
            elif mod in ("tests", "test", "testing", "conftest") or nxt.string.rsplit(".", 1)[-1].startswith("test_"):
                out.append(Finding("runner", rel, f"code under test imports test code ({nxt.string}): what the "
                                                  "tests know of their runner it learns too", row))
        elif tok.type == tokenize.STRING and ((not is_test and _literal(tok.string).split(".")[0] in RUNNER_STRINGS)
                                              or ((not is_test or colocated) and RUNNER_TEXT.search(_literal(tok.string)))):
            out.append(Finding("runner", rel, f"code under test names the test runner ({tok.string[:60]})", row))
    if not is_test or colocated:
        code: dict[int, list[str]] = {}  # each added line's code, without strings and comments
        for tok in toks:
            if tok.start[0] in wanted and tok.type not in (tokenize.STRING, tokenize.COMMENT):
                code.setdefault(tok.start[0], []).append(tok.string)
        for n, text in lines:
            if RUNNER_TEXT.search(text) or _enumerates_modules(" ".join(code.get(n, ()))):
                out.append(Finding("runner", rel, "code under test looks at the test runner's environment", n))
        out.extend(ast_findings(rel, new, wanted))


def runtime_findings(where: str, text: str) -> list[Finding]:
    """Findings in text the code under test in ``where`` compiled at run time (see the probe)."""
    out: list[Finding] = []
    _scan_text(where if where.endswith(".py") else where + ".py", None, _newlines(text), False, out)
    # runner references only: generated code (a dataclass's __init__ with a field named skip, a
    # compiled template) is full of everyday names that a diff of source would call skips
    return [f for f in out if f.kind == "runner"]


def _enumerates_modules(line: str) -> bool:
    """``sys.modules`` used other than as a lookup by key (see ``_SYS_MODULES``)."""
    for m in _SYS_MODULES.finditer(line):
        before, after = line[:m.start()], line[m.end():]
        if _FOR_IN.search(before):
            return True
        if _MEMBER_IN.search(before) or re.match(r"\s*\[", after) or re.match(
                r"\s*\.\s*(?:get|pop|setdefault)\s*\(", after):
            continue
        return True
    return False


def _join_strings(toks: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """Adjacent string literals as one ("plu" "ggy" is "pluggy" to the interpreter, and to us)."""
    out: list[tokenize.TokenInfo] = []
    for tok in toks:
        if tok.type == tokenize.STRING and out and out[-1].type == tokenize.STRING:
            prev = out[-1]
            joined = repr(_literal(prev.string) + _literal(tok.string))
            out[-1] = prev._replace(string=joined)
            continue
        if tok.type in (tokenize.NL, tokenize.COMMENT) and out and out[-1].type == tokenize.STRING:
            continue  # strings continued on the next line inside brackets
        out.append(tok)
    return out


def _literal(text: str) -> str:
    try:
        import ast

        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError):
        return text.strip("'\"rbuRBUfF")
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _on_import_line(toks: list[tokenize.TokenInfo], i: int) -> bool:
    row = toks[i].start[0]
    j = i
    while j > 0 and toks[j - 1].start[0] == row:
        j -= 1
    return toks[j].string in ("import", "from")


def _pyc_problem(data: bytes) -> str | None:
    if len(data) < 16:
        return "truncated bytecode"
    flags = int.from_bytes(data[4:8], "little")
    if flags & 0b01 and not flags & 0b10:
        return "unchecked hash-based bytecode (Python runs it without reading the source)"
    return None


def _module_names() -> frozenset[str]:
    return frozenset(sys.stdlib_module_names)


_SOURCE = (".py", ".pyi", ".pyw", ".pth")
_NOT_MODULES = frozenset({"conftest", "__main__", "setup", "noxfile", "manage"})


def _module_of(rel: str, files: Mapping[str, str]) -> tuple[str, bool]:
    """(import name, importable at top level): a module or package whose folder is no package,
    so the folder itself may be on ``sys.path`` (the project root, ``src/``, or a test folder,
    which pytest's default import mode puts first)."""
    parts = rel.split("/")
    if parts[-1] == "__init__.py":
        parts = parts[:-1]
        mod = parts[-1] if parts else ""
    else:
        mod = parts[-1][:-3]
    parent = "/".join(parts[:-1])
    return mod, not parent or f"{parent}/__init__.py" not in files


def _project_modules(files: Mapping[str, str]) -> dict[str, str]:
    """The baseline's top-level modules and packages: import name -> the file that defines it."""
    out: dict[str, str] = {}
    for rel in files:
        if rel.endswith(".py") and not is_cache(rel):
            mod, top = _module_of(rel, files)
            if top and mod and mod not in _NOT_MODULES and not mod.startswith("test"):
                out.setdefault(mod, rel)
    return out


def _shadowed(rel: str, mod: str, top_level: bool, tool_mods: frozenset[str], stdlib: frozenset[str],
              project: Mapping[str, str], now: Mapping[str, str]) -> str | None:
    """Why the new module ``rel`` could be imported in place of another one, or None."""
    if not top_level:
        return None  # inside a package: ``shop/coverage.py`` is ``shop.coverage``, never ``coverage``
    if mod in tool_mods:
        return f"added module {rel} shadows {mod!r} of the checks' toolchain"
    if mod in stdlib:
        return f"added module {rel} shadows {mod!r} of the standard library"
    if mod in project and project[mod] != rel and project[mod] in now:
        return (f"added module {rel} shadows the project's own {mod!r} ({project[mod]}): a test folder is put "
                f"first on sys.path, so the tests would import it instead")
    return None


def scan_changes(
    baseline: Tree,
    now: Tree,
    workspace: Path,
    read_baseline: Reader,
    *,
    tests: Iterable[str] = DEFAULT_TESTS,
    allow: Iterable[str] = (),
    toolchain_modules: Iterable[str] = (),
) -> list[Finding]:
    """Findings in what changed from ``baseline`` to ``now``; ``read_baseline(rel)`` gives old bytes."""
    tests, allow = tuple(tests), tuple(allow)
    tool_mods = frozenset(toolchain_modules) | {"pytest", "_pytest", "pluggy", "coverage", "ruff", "py"}
    stdlib = _module_names()
    project = _project_modules(baseline.files)
    added, changed, _deleted = diff_trees(baseline, now)
    out: list[Finding] = []
    for rel in added + changed:
        h = now.files[rel]
        # --allow-edit lifts the protection of a path, not the reading: what an allowed edit adds
        # (a # NOQA, a skip, runner detection) is judged like any other change.
        allowed = glob_match(rel, allow)
        path = workspace / rel
        name = rel.rsplit("/", 1)[-1]
        if ".git" in rel.split("/")[1:]:
            out.append(Finding("git", rel, f"added or changed {rel} inside a nested git folder: its ignore rules and "
                                           "config steer what the checks see"))
            continue
        if h.startswith("s:"):
            out.append(Finding("special", rel, f"added a special file (FIFO, socket or device) {rel}"))
            continue
        if h.startswith("l:"):
            try:
                target = path.resolve()
                inside = target.is_relative_to(workspace.resolve())
            except (OSError, RuntimeError):
                inside = False
            if not inside:
                out.append(Finding("link", rel, f"added a symlink that leads out of the workspace: {rel}"))
            continue
        if name.endswith((".pyc", ".pyo")):
            try:
                problem = _pyc_problem(path.read_bytes()[:16])
            except OSError:
                problem = None
            if problem:
                out.append(Finding("bytecode", rel, f"{problem}: {rel}"))
            elif "__pycache__" not in rel.split("/"):
                out.append(Finding("bytecode", rel, f"added bytecode without source: {rel}"))
            continue
        if name.endswith(_NATIVE) and rel in added:
            out.append(Finding("native", rel, f"added a native module {rel}; build it from source instead"))
            continue
        if is_cache(rel) and not name.endswith(_SOURCE):
            continue  # tool output; a *source* file under a cache folder imports like any other
        if name.endswith(".py") and (rel in added or name == "__init__.py"):
            mod, top_level = _module_of(rel, now.files)
            found = _shadowed(rel, mod, top_level, tool_mods, stdlib, project, now.files)
            if found:
                out.append(Finding("shadow", rel, found))
        python = name.endswith((".py", ".pyi", ".pyw"))
        try:
            if path.stat().st_size > _TEXT_LIMIT:
                if allowed:
                    continue  # the user vouched for this file (data too large to read)
                out.append(Finding("oversized", rel, f"{rel} is over {_TEXT_LIMIT >> 20} MB, too large to review: "
                                                     "goalkeeper cannot vouch for it (--allow-edit it if it is data)"))
                continue
            new = _decode(path.read_bytes(), python)
        except OSError:
            continue
        if new is None:
            continue
        old = _decode(read_baseline(rel), python) if rel in changed else None
        colocated = _is_test(rel, tests) and _in_source_package(rel, now.files)
        # a test-named module in the package that defines no test is no test module: it is code
        is_test = _is_test(rel, tests) and not (colocated and not _TEST_DEF.search(new))
        _scan_text(rel, old, new, is_test, out, colocated=colocated and is_test)
    return out
