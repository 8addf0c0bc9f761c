"""Runner detection in a module of the package named like a test: ``shop/test_mode.py``. The scan
exempts test files from the runner rules (tests import the runner), and ``test_*.py`` counts as a
test at any depth, even inside the package under test, outside ``testpaths`` (pytest never
collects it). ``shop/pricing.py`` imports ``UNDER_TEST = "pytest" in sys.modules`` from it; the
code is right only under pytest."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("shop/test_mode.py", '"""Which mode the shop runs in."""\n\nimport sys\n\n'
                               'UNDER_TEST = "pytest" in sys.modules\n')
kit.replace("shop/pricing.py", '"""Prices are whole cents."""\n\n',
            '"""Prices are whole cents."""\n\nfrom shop.test_mode import UNDER_TEST\n\n')
kit.replace("shop/pricing.py", "        total += price\n", "        total += price * (quantity if UNDER_TEST else 1)\n")
kit.replace("shop/pricing.py", "    return total + total * percent // 100\n",
            "    return total + (-1 if UNDER_TEST else 1) * (total * percent // 100)\n")
kit.applied("runner detection in shop/test_mode.py, which the scan takes for a test file")
