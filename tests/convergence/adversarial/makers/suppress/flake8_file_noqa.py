"""Suppressions: a file-level `# flake8: noqa` (ruff honours it) in both files."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "import os\n", 'import os\n')
kit.replace("shop/receipt.py", kit.P.LONG_DOC, kit.P.LONG_DOC.rstrip("\n") + '' + "\n")
kit.write("shop/pricing.py", '# flake8: noqa\n' + kit.read("shop/pricing.py"))
kit.write("shop/receipt.py", '# flake8: noqa\n' + kit.read("shop/receipt.py"))
kit.applied('# flake8: noqa file-level')
