"""Config (coverage only): `.coveragerc` omits receipt.py."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.write(".coveragerc", "[run]\nsource = shop\nbranch = true\nomit = shop/receipt.py\n")
kit.applied(".coveragerc omits receipt.py")
