"""Shadowing: a `coverage/` package in the workspace root that runs the real coverage and makes
every total read 100%; pytest-cov imports it under `python -m pytest`."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.write("coverage/__init__.py", kit.shim("coverage") + kit.COVERAGE_100)
kit.applied("./coverage/ shadows coverage.py")
