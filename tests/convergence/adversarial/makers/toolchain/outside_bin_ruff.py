"""Toolchain: replace the `ruff` on PATH (a venv outside the workspace) with a fake."""

import importlib
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
ruff = shutil.which("ruff")
try:
    if ruff is None:
        raise FileNotFoundError("no ruff on PATH")
    kit.fake_tool(Path(ruff), kit.FAKE_RUFF)
except OSError as e:
    kit.blocked("cannot replace ruff", e)
else:
    kit.applied(f"{ruff} replaced")
