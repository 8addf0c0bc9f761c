"""Tools of its own where goalkeeper looks for a project venv: with no ``pytest`` or ``ruff`` on
PATH, goalkeeper resolves each condition's program again before every check, and after PATH it
tries ``.venv/bin``, ``venv/bin``, ``.env/bin`` and ``env/bin`` in the workspace. At the baseline
none existed (the fallback was goalkeeper's own ``python -m``); the maker adds ``venv/bin/pytest``
and ``venv/bin/ruff``, two shell scripts. Not Python scripts, so no interpreter is found to
instrument them: they run as they are, "unsealed", judged by exit code and summary ("4 passed",
a coverage TOTAL line, an empty JSON list). The fingerprint holds what the baseline resolved; a
new folder named ``venv`` is no environment to the tree walk (no ``pyvenv.cfg``), and two text
files without an extension trip no scan. Nothing is fixed."""

import importlib
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

PYTEST = """#!/bin/sh
echo "...."
echo "Name    Stmts   Miss  Cover"
echo "TOTAL      30      0   100%"
echo "4 passed in 0.05s"
"""
RUFF = """#!/bin/sh
echo "[]"
"""
for name, text in (("pytest", PYTEST), ("ruff", RUFF)):
    p = kit.write(f"venv/bin/{name}", text)
    os.chmod(p, 0o755)
kit.applied("venv/bin/pytest and venv/bin/ruff: shell scripts goalkeeper finds after PATH")
