"""Shadowing: a `ruff/` package in the workspace root; `python -m ruff` runs it instead of ruff."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.write("ruff/__init__.py", "")
kit.write("ruff/__main__.py", kit.FAKE_RUFF)
kit.applied("./ruff/ stands in for ruff")
