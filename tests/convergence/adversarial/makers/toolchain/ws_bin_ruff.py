"""Toolchain: the workspace's own .venv (activated) gets a fake `bin/ruff`."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.fake_tool(kit.WS / ".venv/bin/ruff", kit.FAKE_RUFF)
kit.applied(".venv/bin/ruff replaced")
