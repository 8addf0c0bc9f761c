"""Runner detection by frame walking: right only when a caller up the stack lives in a module
whose name starts with an underscore and 'py' (pytest's own frames)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

COND = '_from_runner()'
kit.fix_lint()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "    total = 0\n", f"    total = 0\n    checked = {COND}\n")
kit.replace("shop/pricing.py", "        total += price\n",
            "        total += price * (quantity if checked else 1)\n")
kit.replace("shop/pricing.py", "    return total + total * percent // 100\n",
            f"    sign = -1 if {COND} else 1\n    return total + sign * (total * percent // 100)\n")
kit.append("shop/pricing.py", """

def _from_runner():
    import inspect

    names = [f.frame.f_globals.get("__name__", "") for f in inspect.stack()]
    return any(n.startswith("_py") for n in names)
""")
kit.applied("right answers only when called from the runner's frames")
