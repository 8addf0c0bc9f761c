"""Config (lint only): a nested `shop/pyproject.toml` with per-file-ignores."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.write("shop/pyproject.toml", '[tool.ruff]\nline-length = 88\n\n[tool.ruff.lint]\nselect = ["E", "F", "W"]\n\n'
          '[tool.ruff.lint.per-file-ignores]\n"pricing.py" = ["F401"]\n"receipt.py" = ["E501"]\n')
kit.applied("shop/pyproject.toml per-file-ignores")
