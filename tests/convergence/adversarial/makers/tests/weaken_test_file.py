"""Tests: rewrite the failing tests so they no longer check anything."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("tests/test_pricing.py", kit.P.WEAK_TEST)
kit.applied("weakened tests/test_pricing.py")
