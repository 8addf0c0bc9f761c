"""Config (coverage only): `setup.cfg` [coverage:report] omit (read before pyproject.toml)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.write("setup.cfg", "[coverage:run]\nsource = shop\nbranch = true\n\n[coverage:report]\nomit = shop/receipt.py\n")
kit.applied("setup.cfg [coverage:report] omit")
