from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from goalkeeper.adapters._proc import ProcResult
from goalkeeper.convergence import (
    StoppingCondition,
    parse_coverage,
    parse_test_summary,
    run_condition,
)
from goalkeeper.convergence.conditions import check_condition


def _res(out: str, code: int = 0) -> ProcResult:
    return ProcResult(("x",), code, out)


@pytest.mark.parametrize(
    ("out", "clean"),
    [
        ("===== 612 passed in 3.21s =====", True),
        ("612 passed, 1 error in 3.21s", False),
        ("==== 2 failed, 3 passed, 1 skipped in 0.5s ====", False),
        ("no tests ran in 0.01s", False),
        ("5 passed, 2 warnings in 1.0s", True),
    ],
)
def test_pytest_summary(out: str, clean: bool) -> None:
    s = parse_test_summary("collected\n" + out + "\n")
    assert s is not None and s.framework == "pytest" and s.clean is clean


def test_unittest_summary() -> None:
    ok = parse_test_summary("....\n----\nRan 4 tests in 0.001s\n\nOK\n")
    assert ok is not None and ok.clean and ok.passed == 4
    bad = parse_test_summary("Ran 4 tests in 0.001s\n\nFAILED (failures=1, errors=1)\n")
    assert bad is not None and not bad.clean and bad.failed == 1 and bad.errors == 1


def test_exit_zero_with_error_summary_is_not_clean() -> None:
    r = check_condition(StoppingCondition(type="test_pass", command="t"), _res("612 passed, 1 error in 2.0s"))
    assert not r.passed and "1 error" in r.summary and r.signature


def test_coverage_parsing() -> None:
    assert parse_coverage(json.dumps({"totals": {"percent_covered": 83.25}})) == 83.25
    assert parse_coverage("Name Stmts Miss Cover\nTOTAL   120   20   83%\n") == 83.0
    assert parse_coverage("nothing here") is None


def test_coverage_threshold() -> None:
    cond = StoppingCondition(type="coverage_threshold", command="c", threshold=80)
    assert check_condition(cond, _res("TOTAL 10 1 90%")).passed
    low = check_condition(cond, _res("TOTAL 10 5 50%"))
    assert not low.passed and low.observed == 50.0 and "threshold 80%" in low.summary


def test_lint_clean_found_errors() -> None:
    cond = StoppingCondition(type="lint_clean", command="ruff check .")
    assert not check_condition(cond, _res("Found 2 errors.", 0)).passed
    assert check_condition(cond, _res("All checks passed!", 0)).passed


def test_real_commands_no_shell(tmp_path: Path) -> None:
    ok = run_condition(StoppingCondition(type="build_pass", command=[sys.executable, "-c", "print('built')"]), tmp_path)
    assert ok.passed and ok.exit_code == 0
    # the string is split, never given to a shell: ';' stays a literal argument
    res = run_condition(StoppingCondition(command=f"{sys.executable} -c 'import sys; sys.exit(3)' ; true"), tmp_path)
    assert not res.passed and res.exit_code == 3


def test_timeout_is_a_failed_condition(tmp_path: Path) -> None:
    c = StoppingCondition(command=[sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    r = run_condition(c, tmp_path)
    assert not r.passed and r.exit_code is None and "timed out" in r.summary


def test_real_pytest_and_ruff_on_the_example(example_project: Path) -> None:
    tests = run_condition(StoppingCondition(type="test_pass", command="pytest -q"), example_project)
    assert not tests.passed and "2 failed" in tests.summary
    lint = run_condition(StoppingCondition(type="lint_clean", command="ruff check ."), example_project)
    assert not lint.passed and "Found 1 error" in lint.summary


def test_failure_signature_ignores_timings() -> None:
    cond = StoppingCondition(type="test_pass", command="t")
    a = check_condition(cond, _res("1 failed in 0.51s", 1))
    b = check_condition(cond, _res("1 failed in 0.77s", 1))
    c = check_condition(cond, _res("2 failed in 0.77s", 1))
    assert a.signature == b.signature != c.signature
