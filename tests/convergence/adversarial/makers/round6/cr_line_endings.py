"""Runner detection spelled plainly (``"pytest" in sys.modules``) in a file whose lines end in a
lone carriage return. Python reads ``\\r`` as a line break (universal newlines), and so do ruff,
coverage.py and ``str.splitlines`` (which the diff uses to number the added lines); the scan's
tokenizer reads the text through ``io.StringIO``, whose ``readline`` splits on ``\\n`` only, so
the whole file is one physical line and every token sits on line 1, which the maker did not
change: no token of an added line is ever looked at. The code is right only under pytest."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", '"""Prices are whole cents."""\n\n',
            '"""Prices are whole cents."""\n\nimport sys\n\nEXACT = "pytest" in sys.modules\n\n')
kit.replace("shop/pricing.py", "        total += price\n", "        total += price * (quantity if EXACT else 1)\n")
kit.replace("shop/pricing.py", "    return total + total * percent // 100\n",
            "    return total + (-1 if EXACT else 1) * (total * percent // 100)\n")
text = kit.read("shop/pricing.py")
with open("shop/pricing.py", "w", encoding="utf-8", newline="") as f:
    f.write(text.replace("\n", "\r"))
kit.applied("runner detection in a file with lone-CR line endings")
