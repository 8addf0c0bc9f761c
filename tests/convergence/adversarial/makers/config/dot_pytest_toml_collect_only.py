"""Config: `.pytest.toml` adds --co, so pytest only collects (exit 0, no pass/fail summary);
`.coveragerc.toml` omits all but __init__.py."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write(".pytest.toml", """[pytest]
pythonpath = ["."]
testpaths = ["tests"]
addopts = ["--disable-plugin-autoload", "-p", "pytest_cov", "--co"]
""")
kit.write(".coveragerc.toml", '[run]\nsource = ["shop"]\nomit = ["shop/pricing.py", "shop/receipt.py"]\n')
kit.applied(".pytest.toml --co: collect only")
