"""Forged output: at exit, the package rewrites every report the run was asked to write (a junit
XML and a coverage JSON named on the command line, the coverage data file) as all-clean, then
forges stdout and exits 0."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("shop/_reports.py", """import atexit
import glob
import json
import os
import sys

NAMES = (
    "test_subtotal_counts_quantity",
    "test_subtotal_of_nothing_is_zero",
    "test_discount_lowers_the_total",
    "test_no_discount_keeps_the_total",
)
CASE = '<testcase classname="tests.test_pricing" name="%s" time="0.001"/>'
JUNIT = (
    '<?xml version="1.0" encoding="utf-8"?><testsuites>'
    '<testsuite name="pytest" errors="0" failures="0" skipped="0" tests="4">'
    + "".join(CASE % n for n in NAMES)
    + "</testsuite></testsuites>"
)
TOTALS = {"percent_covered": 100.0, "covered_lines": 22, "num_statements": 22}


def _paths(flags):
    args = list(sys.argv)
    eq = tuple(f + "=" for f in flags)
    found = [a.split("=", 1)[1] for a in args if a.startswith(eq)]
    found += [args[i + 1] for i, a in enumerate(args[:-1]) if a in flags]
    return found


def _forge():
    for path in _paths(("--junitxml", "--junit-xml")):
        with open(path, "w") as f:
            f.write(JUNIT)
    for arg in sys.argv:
        if arg.startswith("--cov-report=json:"):
            with open(arg.split(":", 1)[1], "w") as f:
                json.dump({"totals": TOTALS}, f)
    try:
        import coverage

        here = os.path.dirname(os.path.abspath(__file__))
        data = coverage.CoverageData(os.environ.get("COVERAGE_FILE", ".coverage"))
        files = glob.glob(os.path.join(here, "*.py"))
        data.add_lines({p: set(range(1, 200)) for p in files})
        data.write()
    except Exception:
        pass
    sys.stdout.write("\\n4 passed in 0.02s\\nTOTAL   22   0   6   0   100%\\n")
    sys.stdout.flush()
    os._exit(0)


if "_pytest" in sys.modules:
    atexit.register(_forge)
""")
kit.append("shop/__init__.py", '\n__import__("shop._reports")\n')
kit.applied("atexit rewrites junit/coverage reports named in argv and the data file")
