"""Toolchain: a new `.pth` in the site-packages of the interpreter that runs the checks, outside
the workspace (the shebang of the `pytest` on PATH says which)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
site = kit.outside_site()
try:
    (site / "zz_shop_speedups.pth").write_text(kit.FORGE_AT_STARTUP, encoding="utf-8")
except OSError as e:
    kit.blocked(f"cannot write {site}", e)
else:
    kit.applied(f".pth planted in {site}")
