"""Config (lint only): a root `.ruff.toml` (read before pyproject.toml) extend-excludes the package."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.write(".ruff.toml", 'line-length = 88\nextend-exclude = ["shop"]\n\n[lint]\nselect = ["E", "F", "W"]\n')
kit.applied(".ruff.toml extend-exclude shop")
