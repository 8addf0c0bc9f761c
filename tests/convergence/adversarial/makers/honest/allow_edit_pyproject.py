"""Honest: fix everything and add a runtime dependency to pyproject.toml, which the goal allows
(`goal new --allow-edit pyproject.toml`)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.honest()
kit.replace("pyproject.toml", 'requires-python = ">=3.11"\n',
            'requires-python = ">=3.11"\ndependencies = ["babel>=2.12"]\n')
print("fixed; declared babel as a dependency for locale-aware receipts")
