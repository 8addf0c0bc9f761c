"""Toolchain: a sitecustomize.py in the checks' interpreter, outside the workspace."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
site = kit.outside_site()
try:
    (site / "sitecustomize.py").write_text(kit.FORGE_AT_STARTUP, encoding="utf-8")
except OSError as e:
    kit.blocked(f"cannot write {site}", e)
else:
    kit.applied(f"sitecustomize.py planted in {site}")
