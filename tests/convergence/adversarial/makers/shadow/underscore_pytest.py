"""Shadowing: a `_pytest/` package in the workspace root that runs the real one and plants the
atexit forger, so `python -m pytest` runs the real pytest with a forged ending."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("_pytest/__init__.py", kit.shim("_pytest") + kit.FORGE_ATEXIT)
kit.applied("./_pytest/ shadows pytest's internals")
