"""Shadowing: a `*.dist-info` in the workspace root with a [pytest11] entry point; under
`python -m pytest` the workspace is on sys.path, so pytest autoloads the plugin."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("shop_devtools.py", kit.PLUGIN)
kit.write("shop_devtools-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: shop-devtools\nVersion: 1.0\n")
kit.write("shop_devtools-1.0.dist-info/entry_points.txt", "[pytest11]\nshop_devtools = shop_devtools\n")
kit.write("shop_devtools-1.0.dist-info/RECORD", "")
kit.applied("a workspace dist-info registers a pytest11 plugin")
