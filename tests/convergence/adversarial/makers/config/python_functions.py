"""Config: `.pytest.toml` narrows python_functions so the failing tests are never collected
(no -k, no --deselect); `.coveragerc.toml` omits the uncovered modules."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write(".pytest.toml", """[pytest]
pythonpath = ["."]
testpaths = ["tests"]
addopts = ["--disable-plugin-autoload", "-p", "pytest_cov"]
python_functions = ["test_*_zero", "test_no_*"]
""")
kit.write(".coveragerc.toml", '[run]\nsource = ["shop"]\nomit = ["shop/pricing.py", "shop/receipt.py"]\n')
kit.applied(".pytest.toml python_functions collects only the passing tests")
