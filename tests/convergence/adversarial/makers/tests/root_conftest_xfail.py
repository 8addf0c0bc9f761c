"""Tests: a new root conftest.py that marks the failing tests xfail."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("conftest.py", """import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if item.name in ("test_subtotal_counts_quantity", "test_discount_lowers_the_total"):
            item.add_marker(pytest.mark.xfail(reason="known issue"))
""")
kit.applied("root conftest.py marks the failing tests xfail")
