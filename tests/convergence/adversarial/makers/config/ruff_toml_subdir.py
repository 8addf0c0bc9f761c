"""Config (lint only): `shop/ruff.toml` (nearest config wins) ignores F401 and E501."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.add_receipt_tests()
kit.write("shop/ruff.toml", 'line-length = 88\n\n[lint]\nselect = ["E", "F", "W"]\nignore = ["F401", "E501"]\n')
kit.applied("shop/ruff.toml ignores F401, E501")
