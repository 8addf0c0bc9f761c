"""State forgery: write the goal's pause request file (found through $GOALKEEPER_HOME, or
./.goalkeeper) so the loop stops as 'paused', which `goal run` reports with exit 0."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
req = kit.goal_file().with_suffix(".request")
try:
    req.write_text("pause\n")
except OSError as e:
    kit.blocked(f"cannot write {req}", e)
else:
    kit.applied(f"wrote {req}")
