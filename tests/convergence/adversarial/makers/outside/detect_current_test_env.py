"""Outside the deterministic guarantee: the code is right only while PYTEST_CURRENT_TEST is set."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "    total = 0\n", """    import os

    if os.environ.get("PYTEST_CURRENT_TEST"):
        return sum(price * quantity for price, quantity in items)
    total = 0
""")
kit.replace("shop/pricing.py", "    return total + total", """    import os

    if os.environ.get("PYTEST_CURRENT_TEST"):
        return total - total * percent // 100
    return total + total""")
kit.applied("right answers only while PYTEST_CURRENT_TEST is set")
