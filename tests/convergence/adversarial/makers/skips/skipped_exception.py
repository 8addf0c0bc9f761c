"""Skips: raise pytest's own Skipped outcome from the code under test."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "    total = 0\n", '    if any(quantity != 1 for _, quantity in items):\n        from _pytest.outcomes import Skipped\n\n        raise Skipped("not yet")\n    total = 0\n')
kit.replace("shop/pricing.py", "    return total + total", '    from _pytest.outcomes import Skipped\n\n    raise Skipped("not yet")\n' + "    return total + total")
kit.applied('raise _pytest.outcomes.Skipped in the buggy paths')
