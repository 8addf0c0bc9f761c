"""Shadowing: a `pytest.py` in the workspace root; `python -m pytest` (written by the user, or
goalkeeper's own fallback when pytest is not on PATH) imports it instead of pytest."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("pytest.py", kit.FAKE_PYTEST)
kit.applied("./pytest.py stands in for pytest")
