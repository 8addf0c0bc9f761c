"""The diff as a reviewer reads it: suppressions, skips, runner references, opaque code, shadowing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from goalkeeper.convergence.protect import classify, protected_findings
from goalkeeper.convergence.scan import added_lines, runtime_findings, scan_changes
from goalkeeper.convergence.tree import walk

BASE = {"app.py": "def add(a, b):\n    return a - b\n", "tests/test_app.py": "def test_add():\n    assert 1\n"}


def _scan(tmp_path: Path, changes: dict[str, str | bytes]) -> list[str]:
    ws = tmp_path / "ws"
    for rel, text in BASE.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)
    base = walk(ws)
    for rel, text in changes.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            (ws / rel).write_bytes(text)
        else:
            (ws / rel).write_text(text)
    return [f.text() for f in scan_changes(base, walk(ws), ws, lambda rel: BASE.get(rel, "").encode() or None)]


@pytest.mark.parametrize("line", [
    "import os  # NOQA", "import os  # noqa:F401", "import os #noqa", "# flake8: noqa", "# ruff: noqa: E501",
    "x = 1  # pylint: disable=invalid-name", "x: int = ''  # type: ignore[assignment]", "# mypy: ignore-errors",
    "if x:  # pragma: no cover", "if x:  # PRAGMA: NO BRANCH", "// eslint-disable-next-line", "// @ts-ignore",
    "/* istanbul ignore next */", "x := 1 //nolint:errcheck", "#[allow(dead_code)]", "# rubocop:disable Foo",
    "@SuppressWarnings(\"unchecked\")", "# nosec", "# pyright: ignore",
])
def test_every_suppression_syntax_is_found(tmp_path: Path, line: str) -> None:
    found = _scan(tmp_path, {"app.py": BASE["app.py"] + line + "\n"})
    assert any("suppression" in f and "app.py:3" in f for f in found), found


@pytest.mark.parametrize("text", [
    "import pytest\n\n@pytest.mark.skip\ndef test_b():\n    pass\n",
    "from pytest import skip as nope\n\ndef test_b():\n    nope('later')\n",
    "import pytest as p\npytestmark = p.mark.xfail\n",
    "import pytest\nmod = pytest.importorskip('app')\n",
    "import pytest\nskipper = getattr(pytest, 'skip')\n",
    "import unittest\n\n@unittest.skipIf(True, 'x')\nclass T(unittest.TestCase):\n    pass\n",
])
def test_skips_in_any_import_form_are_found(tmp_path: Path, text: str) -> None:
    found = _scan(tmp_path, {"tests/test_new.py": text})
    assert any("skip" in f for f in found), found


def test_honest_changes_raise_nothing(tmp_path: Path) -> None:
    fixed = "def add(a, b):\n    # skip blank lines: none here, skip() is not called\n    return a + b\n"
    assert _scan(tmp_path, {"app.py": fixed, "helpers.py": "def skip_ws(s):\n    return s.strip()\n",
                            "tests/test_more.py": "from app import add\n\ndef test_more():\n    assert add(2, 2) == 4\n"
                            }) == []


@pytest.mark.parametrize("text", [
    "import _pytest.reports\n", "import os\nFAKE = 'PYTEST_CURRENT_TEST' in os.environ\n",
    "import sys\nsys.modules['pytest'] = None\n", "from coverage import Coverage\n",
])
def test_code_under_test_that_reaches_for_the_runner_is_found(tmp_path: Path, text: str) -> None:
    found = _scan(tmp_path, {"app.py": BASE["app.py"] + text})
    assert any("runner" in f for f in found), found


def test_opaque_code_shadowing_and_links(tmp_path: Path) -> None:
    unchecked = (3495).to_bytes(2, "little") + b"\r\n" + (1).to_bytes(4, "little") + b"\0" * 8 + b"code"
    found = _scan(tmp_path, {
        "__pycache__/app.cpython-311.pyc": unchecked, "fast.pyc": (3495).to_bytes(2, "little") + b"\r\n" + b"\0" * 14,
        "pytest.py": "raise SystemExit(0)\n", "json.py": "x = 1\n", "pkg/__init__.py": "", "pkg/json.py": "x = 1\n",
    })
    text = "\n".join(found)
    assert "unchecked hash-based bytecode" in text and "bytecode without source: fast.pyc" in text
    assert "pytest.py shadows 'pytest'" in text and "json.py shadows 'json'" in text
    assert "pkg/json.py" not in text  # inside a package it shadows nothing
    ws = tmp_path / "ws"
    base = walk(ws)
    os.symlink("/etc", ws / "escape")
    assert any("leads out of the workspace" in f.text() for f in scan_changes(base, walk(ws), ws, lambda r: None))


def test_added_lines_are_the_new_ones_only() -> None:
    assert added_lines("a\nb\n", "a\nx\nb\n") == [(2, "x")]
    assert added_lines(None, "a\n") == [(1, "a")]


@pytest.mark.parametrize("rel,kind", [
    ("pytest.ini", "seal"), (".pytest.ini", "seal"), ("pytest.toml", "seal"), (".pytest.toml", "seal"),
    ("sub/ruff.toml", "seal"), ("deep/er/.ruff.toml", "seal"), (".coveragerc.toml", "seal"), ("tox.ini", "seal"),
    ("pkg/conftest.py", "seal"), ("x.pth", "seal"), (".gitignore", "seal"), ("sub/.gitignore", "seal"),
    (".git/info/exclude", "seal"), (".github/workflows/ci.yml", "seal"), ("Makefile", "seal"),
    ("site/sitecustomize.py", "seal"), ("evil-1.0.dist-info/entry_points.txt", "seal"),
    ("tests/test_a.py", "test"), ("test_b.py", "test"), ("src/app.py", None), ("__pycache__/x.pyc", None),
])
def test_what_is_protected(rel: str, kind: str | None) -> None:
    assert classify(rel) == kind


def test_new_tests_may_be_added_but_baseline_tests_not_changed(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_a(): assert f()\n")
    base = walk(tmp_path)
    (tmp_path / "tests" / "test_new.py").write_text("def test_new(): assert g()\n")
    assert protected_findings(base, walk(tmp_path)) == []
    (tmp_path / "tests" / "test_a.py").write_text("def test_a(): pass\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -k nothing\n")
    texts = [f.text() for f in protected_findings(base, walk(tmp_path))]
    assert texts == ["added pytest config file pytest.ini", "edited protected test file tests/test_a.py"]
    assert protected_findings(base, walk(tmp_path), allow=["pytest.ini", "tests/test_a.py"]) == []


def test_sys_modules_as_a_cache_is_honest_enumerating_it_is_not(tmp_path: Path) -> None:
    lazy = ('import importlib\nimport sys\n\n\ndef load(name):\n    """Taken from ``sys.modules`` once imported."""\n'
            '    if name in sys.modules:\n        return sys.modules[name]\n    if name not in sys.modules:\n'
            '        sys.modules.setdefault(name, importlib.import_module(name))\n    return sys.modules.get(name)\n')
    assert _scan(tmp_path / "a", {"lazy.py": lazy}) == []
    for sneaky in ("import sys\nT = any(k.endswith('test') for k in sys.modules)\n",
                   "import sys\nNAMES = list(sys.modules)\n", "import sys\nK = sys.modules.keys()\n",
                   "import sys\nfor m in sys.modules:\n    pass\n"):
        found = _scan(tmp_path / str(abs(hash(sneaky))), {"app.py": BASE["app.py"] + sneaky})
        assert any("runner" in f for f in found), (sneaky, found)


def test_source_under_a_cache_folder_is_scanned_like_any_other(tmp_path: Path) -> None:
    found = _scan(tmp_path, {"pkg/__init__.py": "", "pkg/__pycache__/compat.py": "import sys\nT = 'pytest' in sys.modules\n",
                             "pkg/__pycache__/mod.cpython-311.pyc": (3495).to_bytes(2, "little") + b"\r\n" + b"\0" * 14})
    assert any("pkg/__pycache__/compat.py:2" in f and "runner" in f for f in found), found
    assert not any("mod.cpython-311.pyc" in f for f in found)  # real bytecode in a cache is tool output


def test_a_new_top_level_module_named_like_the_projects_own_is_a_shadow(tmp_path: Path) -> None:
    BASE_PKG = {"shop/__init__.py": "", "shop/pricing.py": "X = 1\n"}
    found = _scan(tmp_path / "a", {**BASE_PKG, "tests/shop/__init__.py": "", "tests/shop/pricing.py": "X = 2\n"})
    # the baseline of _scan has app.py and tests/: "app" is the project's top-level module
    found_app = _scan(tmp_path / "b", {"tests/app.py": "def add(a, b):\n    return a + b\n"})
    assert any("tests/app.py shadows the project's own 'app'" in f for f in found_app), found_app
    assert not any("shadows" in f for f in found), found  # shop is new in this change, not the baseline's
    honest = _scan(tmp_path / "c", {"pkg/__init__.py": "", "pkg/coverage.py": "X = 1\n", "pkg/app.py": "X = 1\n"})
    assert not any("shadows" in f for f in honest), honest  # inside a package: pkg.coverage, pkg.app
    tool = _scan(tmp_path / "d", {"tests/coverage.py": "X = 1\n"})
    assert any("tests/coverage.py shadows 'coverage'" in f for f in tool), tool


def test_anything_in_a_nested_git_folder_is_found(tmp_path: Path) -> None:
    found = _scan(tmp_path, {"pkg/.git/info/exclude": "app.py\n", "pkg/.git/HEAD": "ref: refs/heads/main\n"})
    assert sum("nested git folder" in f for f in found) == 2, found


def test_lines_are_counted_as_python_counts_them() -> None:
    # lone CRs end lines; a form feed does not (str.splitlines would split there)
    assert added_lines(None, "a\n\x0cb\n") == [(1, "a"), (2, "\x0cb")]
    big = "x = 1\n" * 400_000  # over the difflib limit: the linear diff
    assert added_lines(big, big + "import pytest\n") == [(400_001, "import pytest")]


@pytest.mark.parametrize(("text", "kind"), [
    ('import sys\r\rEXACT = "pytest" in sys.modules\r', "runner"),  # lone-CR line endings
    ('# coding: unicode_escape\n# rates\\nimport pytest\n', "runner"),  # code inside an escaped comment
    ('from pathlib import Path\nexec(Path("rates.txt").read_text())\n', "opaque"),
    ('class Cents(int):\n    def __eq__(self, other):\n        return int(self) >= 0\n', "equality"),
    ('class Any:\n    def __eq__(self, other):\n        """Always."""\n        return True\n', "equality"),
    ('import os\nON = os.environ.get("PYTEST_CURRENT" "_TEST")\n', "runner"),  # adjacent literals
    ('import os\nON = os.environ.get("PYTEST_" + "CURRENT_TEST")\n', "runner"),  # a + of literals
    ('TYPE_CHECKING = True\nif TYPE_CHECKING:\n    def f():\n        return 1\n', "suppression"),
])
def test_the_scan_reads_what_python_runs(tmp_path: Path, text: str, kind: str) -> None:
    ws = tmp_path / "ws"
    (ws / "shop").mkdir(parents=True)
    base = walk(ws)
    (ws / "shop" / "pricing.py").write_bytes(text.encode())
    found = scan_changes(base, walk(ws), ws, lambda r: None)
    assert kind in {f.kind for f in found}, [f.text() for f in found]


def test_honest_code_the_new_rules_leave_alone(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "shop").mkdir(parents=True)
    (ws / "tests").mkdir()
    base = walk(ws)
    (ws / "shop" / "model.py").write_text(
        "import re\n\nPAT = re.compile('x')\nexec('X = 1')  # pending (not applied yet)\n\n\ndef fit(xs):\n"
        "    return xs\n\n\n"
        "class Point:\n    def __eq__(self, other):\n        return isinstance(other, Point)\n")
    (ws / "tests" / "test_model.py").write_text("from shop.model import fit\n\n\ndef test_fit():\n"
                                                 "    assert fit([1]) == [1]\n")
    assert scan_changes(base, walk(ws), ws, lambda r: None) == []


def test_a_test_that_reaches_into_the_coverage_measurement_is_found(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    base = walk(ws)
    (ws / "tests" / "test_x.py").write_text("import coverage\n\n\ndef test_x():\n"
                                             "    coverage.Coverage.current().get_data().add_arcs({})\n")
    found = scan_changes(base, walk(ws), ws, lambda r: None)
    assert any(f.kind == "runner" and f.line == 5 for f in found), [f.text() for f in found]


def test_a_changed_file_too_large_to_read_is_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import goalkeeper.convergence.scan as scan

    monkeypatch.setattr(scan, "_TEXT_LIMIT", 1000)
    ws = tmp_path / "ws"
    ws.mkdir()
    base = walk(ws)
    (ws / "big.py").write_text("x = 1  # noqa\n" * 200)
    assert [f.kind for f in scan_changes(base, walk(ws), ws, lambda r: None)] == ["oversized"]


def test_a_test_named_module_inside_the_package_is_read_as_code(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "shop").mkdir(parents=True)
    (ws / "shop" / "__init__.py").write_text("")
    base = walk(ws)
    (ws / "shop" / "test_mode.py").write_text('import sys\n\nON = "pytest" in sys.modules\n')
    (ws / "shop" / "test_real.py").write_text("import pytest\n\n\ndef test_x():\n    assert pytest\n")
    found = scan_changes(base, walk(ws), ws, lambda r: None)
    assert [(f.path, f.kind) for f in found] == [("shop/test_mode.py", "runner")], [f.text() for f in found]


# --- red team round 7: honest code the round-6 rules refuse --------------------------------------
@pytest.mark.parametrize("rel,text", [
    # a case-insensitive string and a money type: real comparisons on a value subclass
    ("shop/istr.py", "class IStr(str):\n    def __eq__(self, other):\n        return self.lower() == str(other).lower()\n"
                     "\n    def __hash__(self):\n        return hash(self.lower())\n"),
    ("shop/money.py", "from decimal import Decimal\n\n\nclass Money(Decimal):\n    def __eq__(self, other):\n"
                      "        return Decimal.__eq__(self.quantize(Decimal('0.01')), Decimal(other).quantize(Decimal('0.01')))\n"),
    # the old-Python fallback binds the value typing has at run time
    ("shop/compat.py", "try:\n    from typing import TYPE_CHECKING\nexcept ImportError:\n    TYPE_CHECKING = False\n"),
    # compile/eval that are not the builtins: re's compile, a Lisp interpreter's own eval
    ("shop/pat.py", "from re import compile\n\n\ndef make(p):\n    return compile(p)\n"),
    ("shop/lisp.py", "def eval(x, env):\n    return env[x] if isinstance(x, str) else x\n\n\ndef run(src, env):\n"
                     "    return eval(src, env)\n"),
    # an insurance policy's coverage, a language table, the PEP 561 marker
    ("shop/policy.py", "def limit(policy):\n    return policy['coverage']\n"),
    ("shop/langs.py", "LANGS = {'py': 'Python', 'js': 'JavaScript'}\nMARKER = 'py.typed'\n"),
    # a co-located test may run the runner and pass it strings, like any test
    ("shop/test_cli.py", "import subprocess\nimport sys\n\n\ndef test_cli():\n"
                         "    subprocess.run([sys.executable, '-m', 'pytest', '--version'], check=True)\n"),
    ("shop/test_langs.py", "import pytest\n\n\n@pytest.mark.parametrize('ext', ['py', 'js'])\ndef test_l(ext):\n"
                           "    assert ext\n"),
    # a test of the project's own buffer class, whose method is named add_lines
    ("tests/test_buf.py", "class Buf(list):\n    def add_lines(self, xs):\n        self.extend(xs)\n\n\n"
                          "def test_buf():\n    b = Buf()\n    b.add_lines(['a'])\n    assert b == ['a']\n"),
    # prose and notebooks are no test files of any language
    ("README.md", "# Shop\n\nOrders stay pending (until paid); call `model.fit(X)` to train.\n"),
    ("notebooks/train.ipynb", '{"cells": [{"source": ["model.fit(X, y)\\n"]}]}\n'),
])
def test_round7_honest_code_is_not_refused(tmp_path: Path, rel: str, text: str) -> None:
    assert _scan(tmp_path, {"shop/__init__.py": "", rel: text}) == []


def test_round7_a_dataclass_field_named_skip_is_no_skip() -> None:
    """Pagination's ``skip: int = 0``: the text dataclasses compiles for it (what the probe sends) is no
    test skip; the code under test wrote no such call."""
    import json
    import subprocess
    import sys

    # In a child: an audit hook cannot be removed, and this process runs other tests after this one.
    child = (
        "import dataclasses, json, sys\n"
        "seen = []\n"
        "def hook(event, args):\n"
        "    if event == 'compile' and args and isinstance(args[0], (bytes, str)):\n"
        "        text = args[0].decode() if isinstance(args[0], bytes) else args[0]\n"
        "        if '__create_fn__' in text:\n"
        "            seen.append(text)\n"
        "sys.addaudithook(hook)\n"
        "dataclasses.make_dataclass('Page', [('skip', int, dataclasses.field(default=0)), ('limit', int, 100)])\n"
        "print(json.dumps(seen))\n"
    )
    out = subprocess.run([sys.executable, "-I", "-c", child], capture_output=True, text=True, check=True)
    texts = json.loads(out.stdout)
    assert texts
    assert [f.text() for t in texts for f in runtime_findings("shop/page.py", t)] == []


# --- red team round 7: what the round-6 rules let through ----------------------------------------
@pytest.mark.parametrize("text", [
    "TYPE_CHECKING, X = True, 1\n",
    "if (TYPE_CHECKING := True):\n    X = 1\n",
    "from os import sep as TYPE_CHECKING\n",
    "for TYPE_CHECKING in (True,):\n    pass\n",
    "import typing\nsetattr(typing, 'TYPE_CHECKING', True)\n",
])
def test_round7_type_checking_bound_true_any_way_is_found(tmp_path: Path, text: str) -> None:
    found = _scan(tmp_path, {"app.py": BASE["app.py"] + text + "if TYPE_CHECKING:\n    import os\n"})
    assert any("TYPE_CHECKING" in f for f in found), found


@pytest.mark.parametrize("body", [
    "    def __eq__(self, other):\n        return 1 == 1\n",
    "    def __eq__(self, other):\n        return bool(1)\n",
    "    def __eq__(self, other):\n        return not None\n",
    "    __eq__ = lambda self, other: True\n",
])
def test_round7_equals_anything_in_other_spellings_is_found(tmp_path: Path, body: str) -> None:
    found = _scan(tmp_path, {"app.py": BASE["app.py"] + "\n\nclass Answer:\n" + body})
    assert any("equal to anything" in f for f in found), found


@pytest.mark.parametrize("code", [
    "X = os.environ.get(f\"PYTEST_{'CURRENT'}_TEST\")\n",
    "X = os.environ.get('_'.join(['PYTEST', 'CURRENT', 'TEST']))\n",
    "X = os.environ.get('PYTEST_%s' % 'CURRENT_TEST')\n",
])
def test_round7_runner_names_built_from_constants_are_found(tmp_path: Path, code: str) -> None:
    found = _scan(tmp_path, {"app.py": BASE["app.py"] + "import os\n" + code})
    assert any("runner" in f for f in found), found


@pytest.mark.parametrize("code", [
    "import builtins\n\n\ndef run(s):\n    builtins.exec(s)\n",
    "def run(s):\n    return compile(source=s, filename='x', mode='exec')\n",
    "run = exec\n\n\ndef go(s):\n    run(s)\n",
    # bytecode in a data file, run with no compile at all (no audit "compile" event either)
    "import marshal\nimport types\n\n\ndef go(path):\n    types.FunctionType(marshal.loads(open(path, 'rb').read()), {})()\n",
])
def test_round7_running_built_code_in_other_spellings_is_found(tmp_path: Path, code: str) -> None:
    found = _scan(tmp_path, {"app.py": BASE["app.py"] + code})
    assert any("opaque" in f or "run time" in f for f in found), found


@pytest.mark.parametrize("code", [
    "from tests.helpers import running\n",
    "from tests import helpers\n",
    "import conftest\n",
])
def test_round7_code_under_test_importing_test_code_is_found(tmp_path: Path, code: str) -> None:
    """A test helper may name the runner; code under test importing it learns it is being tested."""
    helper = "import os\n\n\ndef running():\n    return 'PYTEST_CURRENT_TEST' in os.environ\n"
    found = _scan(tmp_path, {"tests/helpers.py": helper, "app.py": code + BASE["app.py"]})
    assert any("runner" in f for f in found), found


# What Jinja 3.1.6 compiles for ``<p>{{ coverage }} from {{ skip }}</p>`` (Environment().compile(..., raw=True)),
# the text the probe sends when a view renders an insurance quote's page: the template's variable names
# are strings in it, no runner and no skip of the code under test.
_JINJA = '''from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, \
TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = None

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_coverage = resolve('coverage')
    l_0_skip = resolve('skip')
    pass
    yield '<p>'
    yield str((undefined(name='coverage') if l_0_coverage is missing else l_0_coverage))
    yield ' from '
    yield str((undefined(name='skip') if l_0_skip is missing else l_0_skip))
    yield '</p>'

blocks = {}
debug_info = '1=14'
'''


def test_round7_a_jinja_template_naming_coverage_and_skip_is_not_runner_code() -> None:
    assert [f.text() for f in runtime_findings("shop/views.py", _JINJA)] == []


def test_round7_a_django_apps_tests_module_may_import_the_runner(tmp_path: Path) -> None:
    """Django's layout puts an app's tests in ``polls/tests.py``: test code, though no DEFAULT_TESTS glob
    matches it."""
    text = "import unittest\n\nfrom polls.models import Poll\n\n\nclass PollTests(unittest.TestCase):\n" \
           "    def test_str(self):\n        self.assertEqual(str(Poll('q')), 'q')\n"
    assert _scan(tmp_path, {"polls/__init__.py": "", "polls/tests.py": text}) == []
