"""Toolchain: edit the pytest installed in the workspace's .venv (append the atexit forger to
_pytest/__init__.py)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
init = kit.site_packages(".venv") / "_pytest" / "__init__.py"
if not init.exists():
    sys.exit("maker bug: no pytest installed in .venv")
kit.append(init, kit.FORGE_ATEXIT)
kit.applied(".venv's _pytest/__init__.py edited")
