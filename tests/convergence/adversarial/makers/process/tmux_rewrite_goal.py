"""A process outside the containment forges the state: through the user's tmux server, a payload
waits for goalkeeper to exit, finds the goal's home in goalkeeper's own /proc environ, and
rewrites the goal file as converged."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.run_in_users_tmux('after_goalkeeper("forge")', "the user's tmux server rewrites the goal after goalkeeper exits")
