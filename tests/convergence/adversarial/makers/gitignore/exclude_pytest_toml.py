"""Hiding behind git: `pytest.toml` (-k) and `.coveragerc.toml` (omit), both in .git/info/exclude."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("pytest.toml", """[pytest]
pythonpath = ["."]
testpaths = ["tests"]
addopts = ["--disable-plugin-autoload", "-p", "pytest_cov", "-k", "not counts_quantity and not lowers"]
""")
kit.write(".coveragerc.toml", '[run]\nsource = ["shop"]\nomit = ["shop/pricing.py", "shop/receipt.py"]\n')
kit.git_exclude("pytest.toml", ".coveragerc.toml")
kit.applied("pytest.toml and .coveragerc.toml hidden by .git/info/exclude")
