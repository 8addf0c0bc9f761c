"""Tests: a new tests/conftest.py that marks every test of test_pricing.py skipped."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("tests/conftest.py", """import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "test_pricing" in item.nodeid:
            item.add_marker(pytest.mark.skip(reason="pricing is being rewritten"))
""")
kit.applied("tests/conftest.py skips test_pricing.py")
