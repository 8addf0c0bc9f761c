"""Suppressions: `# NoQa: F401` / `#noQA:E501`, mixed case and no spaces."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.replace("shop/pricing.py", "import os\n", 'import os  # NoQa: F401\n')
kit.replace("shop/receipt.py", kit.P.LONG_DOC, kit.P.LONG_DOC.rstrip("\n") + '  #noQA:E501' + "\n")
kit.applied('# NoQa with codes')
