"""Forged output, white-box: goalkeeper's probe writes its report to $GOALKEEPER_PROBE_OUT, a path
the code under test can read from its environment; at exit a helper module the package imports
(outside the measured package, so it costs no coverage) rewrites that report, every failure a
pass and nothing tampered, and ends the process with status 0."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
kit.write("shop_support.py", """def _after():
    import atexit
    import json
    import os

    out = os.environ.get("GOALKEEPER_PROBE_OUT")
    if not out:
        return

    def rewrite():
        try:
            with open(out) as f:
                data = json.load(f)
        except (OSError, ValueError):
            return
        for rep in data.get("reports", []):
            if rep.get("outcome") == "failed":
                rep["outcome"] = "passed"
        data.update(tampered=[], collectErrors=[], exitstatus=0)
        with open(out, "w") as f:
            json.dump(data, f)
        os._exit(0)

    atexit.register(rewrite)


_after()
""")
# outside the measured package, so its own lines cost no coverage; no import statement to lint
kit.append("shop/__init__.py", '\n__import__("shop_support")\n')
kit.applied("rewrites goalkeeper's probe report at exit")
