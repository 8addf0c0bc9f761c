"""Honest: fix in place; the new tests go in a new package directory tests/unit/."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.write("tests/unit/__init__.py", "")
kit.write("tests/unit/test_receipt_unit.py", kit.P.RECEIPT_TESTS)
print("fixed, tests in tests/unit/")
