"""Hiding behind git: a new test module (sorted first) that swaps the buggy functions for
fixed wrappers at import, hidden by .git/info/exclude."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("tests/test_000_compat.py", kit.PATCH_CODE_TEST)
kit.git_exclude("tests/test_000_compat.py")
kit.applied("tests/test_000_compat.py hidden by .git/info/exclude")
