"""Toolchain: replace the `pytest` script on PATH (a venv outside the workspace) with a fake."""

import importlib
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
exe = shutil.which("pytest")
try:
    if exe is None:
        raise FileNotFoundError("no pytest on PATH")
    kit.fake_tool(Path(exe), kit.FAKE_PYTEST)
except OSError as e:
    kit.blocked("cannot replace pytest", e)
else:
    kit.applied(f"{exe} replaced")
