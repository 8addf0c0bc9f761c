"""Forged output: the package registers an atexit hook (when imported under pytest) that prints
"4 passed" and a `TOTAL ... 100%` line and ends the process with os._exit(0)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.append("shop/__init__.py", kit.FORGE_ATEXIT)
kit.applied("atexit hook forges the summary, the TOTAL line and exit 0")
