"""Forged output: on import, the package patches pytest's TestReport so failures are reported as
passes, and coverage's Numbers so every total reads 100%."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.append("shop/__init__.py", kit.PATCH_REPORTS)
kit.applied("TestReport and coverage Numbers patched at import")
