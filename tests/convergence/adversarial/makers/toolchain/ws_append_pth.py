"""Toolchain: append one line to a `.pth` file that already exists in the workspace's .venv."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
pths = sorted(kit.site_packages(".venv").glob("*.pth"))
if not pths:
    sys.exit("maker bug: no .pth in .venv")
kit.append(pths[0], kit.FORGE_AT_STARTUP)
kit.applied(f"appended to {pths[0].name}")
