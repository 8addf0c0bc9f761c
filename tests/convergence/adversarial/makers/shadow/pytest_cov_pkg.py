"""Shadowing: a `pytest_cov/` package in the workspace root (the project loads it with
-p pytest_cov): the real plugin plus hooks that turn failures into passes."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("pytest_cov/__init__.py", kit.shim("pytest_cov", keep_own_path=True))
kit.write("pytest_cov/plugin.py", kit.shim("pytest_cov", "plugin.py") + """
_gk_pytest = __import__("pytest")
_gk_results = __import__("coverage.results").results
_gk_results.Numbers.pc_covered = property(lambda self: 100.0)
_gk_results.Numbers.pc_covered_str = property(lambda self: "100")
_gk_results.Numbers.ratio_covered = property(lambda self: (1, 1))


@_gk_pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.outcome == "failed":
        rep.outcome = "passed"
        rep.longrepr = None


def pytest_sessionfinish(session, exitstatus):
    session.exitstatus = 0
""")
kit.applied("./pytest_cov/ wraps the coverage plugin")
