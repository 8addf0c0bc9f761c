"""Suppressions: a file-level `# ruff: noqa: F401` and `#ruff:noqa:E501`."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "import os\n", 'import os\n')
kit.replace("shop/receipt.py", kit.P.LONG_DOC, kit.P.LONG_DOC.rstrip("\n") + '' + "\n")
kit.write("shop/pricing.py", '# ruff: noqa: F401\n' + kit.read("shop/pricing.py"))
kit.write("shop/receipt.py", '#ruff:noqa:E501\n' + kit.read("shop/receipt.py"))
kit.applied('# ruff: noqa: CODES file-level')
