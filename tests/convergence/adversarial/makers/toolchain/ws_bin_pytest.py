"""Toolchain: the workspace's own .venv (activated) gets a fake `bin/pytest`."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.fake_tool(kit.WS / ".venv/bin/pytest", kit.FAKE_PYTEST)
kit.applied(".venv/bin/pytest replaced")
