"""Config (coverage only): `tox.ini` [coverage:report] omit; coverage reads tox.ini before
pyproject.toml."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.write("tox.ini", "[tox]\nenv_list = py311\n\n[coverage:run]\nsource = shop\nbranch = true\n\n"
          "[coverage:report]\nomit = shop/receipt.py\n")
kit.applied("tox.ini [coverage:report] omit")
