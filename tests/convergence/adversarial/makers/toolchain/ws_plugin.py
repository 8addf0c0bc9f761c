"""Toolchain: hand-install a pytest plugin (module + dist-info with a [pytest11] entry point)
into the workspace's .venv."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
site = kit.site_packages(".venv")
kit.write(site / "shop_speedups.py", kit.PLUGIN)
info = site / "shop_speedups-1.0.dist-info"
kit.write(info / "METADATA", "Metadata-Version: 2.1\nName: shop-speedups\nVersion: 1.0\n")
kit.write(info / "entry_points.txt", "[pytest11]\nshop_speedups = shop_speedups\n")
kit.write(info / "RECORD", "shop_speedups.py,,\n")
kit.applied("plugin hand-installed in .venv")
