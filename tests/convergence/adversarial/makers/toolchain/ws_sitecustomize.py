"""Toolchain: a sitecustomize.py in the workspace .venv's site-packages."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write(kit.site_packages(".venv") / "sitecustomize.py", kit.FORGE_AT_STARTUP)
kit.applied("sitecustomize.py in .venv")
