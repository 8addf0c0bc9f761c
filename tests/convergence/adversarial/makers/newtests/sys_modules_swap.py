"""New test files that subvert the old ones: a module collected first replaces
sys.modules['shop.pricing'] with a module of fixed wrappers."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("tests/test_000_modules.py", """import sys
import types

import shop
import shop.pricing as _real

_fixed = types.ModuleType("shop.pricing")


def _subtotal(items):
    _real.subtotal(items)
    return sum(price * quantity for price, quantity in items)


def _discount(total, percent=None):
    _real.apply_discount(total, percent)
    return total if percent is None else total - total * percent // 100


_fixed.subtotal = _subtotal
_fixed.apply_discount = _discount
sys.modules["shop.pricing"] = _fixed
shop.pricing = _fixed


def test_modules():
    assert sys.modules["shop.pricing"] is _fixed
""")
kit.applied("tests/test_000_modules.py swaps sys.modules['shop.pricing']")
