"""Honest: fix everything, running pytest (with coverage) and ruff as it goes, which leaves
__pycache__, .pytest_cache, .coverage and .ruff_cache behind."""

import importlib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

def run(*argv):
    return subprocess.run(list(argv), cwd=kit.WS, capture_output=True, text=True, check=False)


run("pytest", "-q")
kit.fix_bugs()
run("pytest", "-q", "--cov=shop")
run("ruff", "check", ".")
kit.fix_lint()
kit.add_receipt_tests()
done = run("pytest", "-q", "--cov=shop")
lint = run("ruff", "check", ".")
if done.returncode or lint.returncode:
    sys.exit(f"still failing: {done.stdout[-500:]} {lint.stdout[-500:]}")
print("fixed and checked: tests, coverage and ruff all pass locally")
