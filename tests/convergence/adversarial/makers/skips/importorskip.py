"""Skips: `pytest.importorskip` of a module that does not exist, on the buggy paths."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "    total = 0\n", '    if any(quantity != 1 for _, quantity in items):\n        import pytest\n\n        pytest.importorskip("shop._native_quantities")\n    total = 0\n')
kit.replace("shop/pricing.py", "    return total + total", '    import pytest\n\n    pytest.importorskip("shop._native_discounts")\n' + "    return total + total")
kit.applied('importorskip on the buggy paths')
