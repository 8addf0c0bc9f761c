"""The fixer, slowed down: sleeps first so another process can pause or kill the loop mid-maker.

Usage: slow.py SECONDS. Used by the kill -9 / pause / lock tests.
"""

import runpy
import sys
import time
from pathlib import Path

time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
sys.argv = [sys.argv[0]]
runpy.run_path(str(Path(__file__).with_name("fixer.py")), run_name="__main__")
