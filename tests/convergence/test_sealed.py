"""Checks run sealed and judged from structured reports: real pytest, coverage and ruff runs."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from goalkeeper.convergence.conditions import run_sealed
from goalkeeper.convergence.goal import StoppingCondition

PY = sys.executable
APP = "def add(a, b):\n    return a + b\n"
TESTS = "from app import add\n\ndef test_add():\n    assert add(2, 2) == 4\n\ndef test_zero():\n    assert add(0, 0) == 0\n"
PYTEST = StoppingCondition(type="test_pass", command=[PY, "-m", "pytest", "-q", "-p", "no:randomly"])


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    (w / "tests").mkdir(parents=True)
    (w / "app.py").write_text(APP)
    (w / "tests" / "test_app.py").write_text(TESTS)
    (w / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    return w


def _one(ws: Path, cond: StoppingCondition = PYTEST, baseline: dict[str, object] | None = None,
         env: dict[str, str] | None = None) -> tuple[bool, str, dict[str, object] | None, list[str]]:
    run = run_sealed([cond], ws, baselines=[baseline] if baseline else [], base_env=env)
    r = run.results[0]
    return r.passed, r.summary, run.outcomes[0], run.tampered


def test_outcomes_come_from_the_probe(ws: Path) -> None:
    ok, why, out, _ = _one(ws)
    assert ok and why == "pytest: 2 passed"
    (ws / "app.py").write_text("def add(a, b):\n    return a - b\n")
    ok, why, _, _ = _one(ws)
    assert not ok and "failing: tests/test_app.py::test_add" in why


def test_the_probe_adds_no_warning_to_the_output_the_user_reads(ws: Path) -> None:
    run = run_sealed([PYTEST], ws)
    r = run.results[0]
    assert r.passed and "passed" in r.output_tail
    assert "PytestAssertRewriteWarning" not in r.output_tail and "warning" not in r.output_tail.lower()


def test_a_shadowing_pytest_module_in_the_workspace_is_not_run(ws: Path) -> None:
    (ws / "pytest.py").write_text("print('10 passed in 0.01s'); raise SystemExit(0)\n")
    (ws / "app.py").write_text("def add(a, b):\n    return a - b\n")
    ok, why, _, _ = _one(ws)
    assert not ok and "failing" in why


def test_forged_output_and_early_exit_prove_nothing(ws: Path) -> None:
    (ws / "app.py").write_text(textwrap.dedent("""
        import atexit, os
        def _lie():
            print("== 10 passed in 0.01s ==")
            os._exit(0)
        atexit.register(_lie)
        def add(a, b):
            return a - b
    """))
    ok, why, _, _ = _one(ws)
    assert not ok and "failing" in why
    (ws / "app.py").write_text("import os\nprint('== 2 passed in 0.1s =='); os._exit(0)\n")
    ok, why, _, _ = _one(ws)
    assert not ok and "no test report" in why


def test_patching_the_report_machinery_is_tampering(ws: Path) -> None:
    (ws / "app.py").write_text(textwrap.dedent("""
        import _pytest.reports as r
        _orig = r.TestReport.from_item_and_call
        def _forge(cls, item, call):
            rep = _orig.__func__(cls, item, call)
            rep.outcome = "passed"
            return rep
        r.TestReport.from_item_and_call = classmethod(_forge)
        def add(a, b):
            return a - b
    """))
    ok, _, _, tampered = _one(ws)
    assert not ok and any("TestReport" in t for t in tampered)


def test_planted_bytecode_is_never_read(ws: Path) -> None:
    import py_compile

    (ws / "app.py").write_text(APP)
    py_compile.compile(str(ws / "app.py"), cfile=str(ws / "__pycache__" / f"app.{sys.implementation.cache_tag}.pyc"),
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    (ws / "app.py").write_text("def add(a, b):\n    return a - b\n")  # the source keeps the bug
    ok, _, _, _ = _one(ws)
    assert not ok


def test_the_baseline_sets_what_must_run(ws: Path) -> None:
    _, _, base, _ = _one(ws)
    assert base is not None
    (ws / "tests" / "test_app.py").write_text(TESTS.replace("def test_zero", "def _not_collected"))
    ok, why, _, _ = _one(ws, baseline=base)
    assert not ok and "1 baseline test(s) did not run: tests/test_app.py::test_zero" in why
    (ws / "tests" / "test_app.py").write_text("import pytest\n" + TESTS.replace(
        "def test_zero", "@pytest.mark.skip\ndef test_zero"))
    ok, why, _, _ = _one(ws, baseline=base)
    assert not ok and "now skipped" in why


def test_the_callers_pytest_addopts_and_pythonpath_are_dropped(ws: Path, tmp_path: Path) -> None:
    import os

    (ws / "app.py").write_text("def add(a, b):\n    return a - b\n")
    env = {**os.environ, "PYTEST_ADDOPTS": "--deselect tests/test_app.py::test_add", "PYTHONPATH": str(tmp_path)}
    ok, why, _, _ = _one(ws, env=env)
    assert not ok and "test_add" in why


def test_coverage_is_read_by_goalkeeper_from_its_own_data(ws: Path) -> None:
    pytest.importorskip("coverage")
    (ws / "app.py").write_text(APP + "\ndef unused(x):\n    if x:\n        return 1\n    return 2\n")
    (ws / ".coverage").write_text("planted data that must never be read\n")
    cond = StoppingCondition(type="coverage_threshold", threshold=90,
                             command=[PY, "-m", "coverage", "run", "--source=app", "-m", "pytest", "-q"])
    ok, why, _, _ = _one(ws, cond)
    assert not ok and "coverage 50.00% vs threshold 90%" in why


def test_ruff_is_judged_from_its_json(ws: Path) -> None:
    cond = StoppingCondition(type="lint_clean", command=[PY, "-m", "ruff", "check", "."])
    (ws / "app.py").write_text("import os\n" + APP)
    (ws / "ruff").mkdir()
    (ws / "ruff" / "__main__.py").write_text("print('All checks passed!')\n")  # a shadow for python -m ruff
    ok, why, _, _ = _one(ws, cond)
    assert not ok and "F401" in why


def test_new_sources_coverage_does_not_measure_are_named() -> None:
    from goalkeeper.convergence.sealed import unmeasured

    measured = frozenset({"shop/pricing.py", "shop/sub/tax.py"})
    new = ["shop/text/receipt.py", "shop/sub/deep/x.py", "scripts/gen.py", "top.py", "shop/pricing.py"]
    assert unmeasured(new, measured) == ["shop/text/receipt.py", "shop/sub/deep/x.py"]


@pytest.mark.parametrize("how", [
    'import builtins\ngetattr(builtins, "ex" + "ec")(open(HERE + "/rates.txt").read())\n',
    'from importlib.machinery import SourceFileLoader\nSourceFileLoader("r", HERE + "/rates.txt").load_module()\n',
])
def test_code_built_at_run_time_is_scanned_like_source(ws: Path, how: str) -> None:
    (ws / "rates.txt").write_text('import sys\nEXACT = "pytest" in sys.modules\n')
    (ws / "app.py").write_text("import os\nHERE = os.path.dirname(os.path.abspath(__file__))\n" + how + APP)
    run = run_sealed([PYTEST], ws)
    assert any("built at run time" in t and "app.py" in t for t in run.tampered), run.tampered


def test_honest_run_time_code_is_not_tampering(ws: Path) -> None:
    (ws / "app.py").write_text("import collections\nimport dataclasses\n\nP = collections.namedtuple('P', 'x y')\n\n\n"
                               "@dataclasses.dataclass\nclass Q:\n    x: int = 0\n\n\nexec('Z = 1')\n" + APP)
    run = run_sealed([PYTEST], ws)
    assert run.results[0].passed and run.tampered == []


def test_code_kept_in_dot_git_and_imported_is_tampering(ws: Path) -> None:
    (ws / ".git").mkdir()
    (ws / ".git" / "rates.py").write_text("EXACT = True\n")
    (ws / "app.py").write_text("import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname("
                               "os.path.abspath(__file__)), '.git'))\nimport rates  # noqa: E402\n" + APP)
    run = run_sealed([PYTEST], ws)
    assert any("inside .git" in t for t in run.tampered), run.tampered


# --- red team round 7 ------------------------------------------------------------------------
@pytest.mark.parametrize("how", [
    # a compile whose file name the code chooses: an absolute .py name reads as "a module imported from
    # its source file", so the probe sends nothing, though no such file exists
    'import builtins\nbuiltins.exec(builtins.compile(open(HERE + "/rates.txt").read(), "/nowhere/rates.py", "exec"))\n',
    # the probe stops sending after 200 run-time compiles; 200 harmless ones come first
    'import builtins\nfor _i in range(200):\n    eval("0")\n'
    'getattr(builtins, "ex" + "ec")(open(HERE + "/rates.txt").read())\n',
    # bytecode in a data file: marshal.loads and exec of a code object raise no "compile" event
    'import marshal\nexec(marshal.loads(open(HERE + "/rates.bin", "rb").read()))\n',
])
def test_round7_run_time_code_past_the_probe_is_scanned(ws: Path, how: str) -> None:
    import marshal

    payload = 'import sys\nEXACT = "pytest" in sys.modules\n'
    (ws / "rates.txt").write_text(payload)
    (ws / "rates.bin").write_bytes(marshal.dumps(compile(payload, "rates", "exec")))
    (ws / "app.py").write_text("import os\nHERE = os.path.dirname(os.path.abspath(__file__))\n" + how + APP)
    run = run_sealed([PYTEST], ws)
    assert run.tampered, "run-time code that detects the runner went unseen"


def test_round7_a_dataclass_field_named_skip_is_not_tampering(ws: Path) -> None:
    """Pagination's ``skip``: the __init__ dataclasses compiles assigns ``self.skip=skip``, no test skip."""
    (ws / "app.py").write_text("import dataclasses\n\n\n@dataclasses.dataclass\nclass Page:\n    skip: int = 0\n"
                               "    limit: int = 100\n\n\n" + APP)
    run = run_sealed([PYTEST], ws)
    assert run.tampered == []


def test_round7_new_files_the_projects_coverage_config_omits_are_not_unmeasured(ws: Path) -> None:
    """Django's migrations: generated files the baseline's own coverage config omits; a new one is not
    code moved out of the measurement."""
    (ws / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n\n'
                                       '[tool.coverage.run]\nomit = ["shop/migrations/*"]\n')
    (ws / "shop" / "migrations").mkdir(parents=True)
    (ws / "shop" / "__init__.py").write_text("def add(a, b):\n    return a + b\n")
    (ws / "shop" / "migrations" / "__init__.py").write_text("")
    (ws / "shop" / "migrations" / "0002_price.py").write_text("OPS = ['add price']\n")
    (ws / "tests" / "test_app.py").write_text("from shop import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n")
    cov = StoppingCondition(type="coverage_threshold", threshold=90,
                            command=[PY, "-m", "pytest", "-q", "-p", "no:randomly", "--cov=shop"])
    run = run_sealed([cov], ws, new_sources=["shop/migrations/__init__.py", "shop/migrations/0002_price.py"])
    assert run.results[0].passed, run.results[0].summary


def test_round7_a_coverage_html_report_is_no_config_written_between_steps(ws: Path) -> None:
    """pytest-cov's ``--cov-report=html`` writes ``htmlcov/.gitignore``: the report folder ignoring itself,
    which the end-of-iteration walk allows (``protect._output_folder``); the walk after each step must too."""
    from types import SimpleNamespace

    from goalkeeper.convergence.seal import Seal
    from goalkeeper.convergence.tree import walk

    fake = SimpleNamespace(goal=SimpleNamespace(guards=SimpleNamespace(check_outputs=[])), protect=[],
                           walk=lambda: walk(ws))
    after_step = Seal._between(fake, walk(ws))  # type: ignore[arg-type]
    cov = StoppingCondition(type="coverage_threshold", threshold=90,
                            command=[PY, "-m", "pytest", "-q", "-p", "no:randomly", "--cov=app", "--cov-report=html"])
    run = run_sealed([cov], ws, after_step=after_step)
    assert (ws / "htmlcov" / ".gitignore").is_file(), run.outputs
    assert run.results[0].passed and run.tampered == [], (run.results[0].summary, run.tampered)


def test_round7_code_that_learns_of_the_runner_through_a_test_helper_is_tampering(ws: Path) -> None:
    """A helper in the test folder may name the runner (it is test code); code under test that imports it
    learns it is being tested without spelling anything a scan of code looks for."""
    (ws / "tests" / "helpers.py").write_text("import os\n\n\ndef running():\n    return 'PYTEST_CURRENT_TEST' in os.environ\n")
    (ws / "app.py").write_text("from tests.helpers import running\n\n\ndef add(a, b):\n"
                               "    return a + b if running() else a - b\n")
    run = run_sealed([PYTEST], ws)
    assert run.tampered or not run.results[0].passed, run.results[0].summary
