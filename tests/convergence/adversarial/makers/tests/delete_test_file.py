"""Tests: delete the failing test module."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
(kit.WS / "tests" / "test_pricing.py").unlink()
kit.applied("deleted tests/test_pricing.py")
