"""goalkeeper's private check directory is reachable by the code under test (same user, a
the folder of the data file named in its own environment), and goalkeeper starts its own helper as a script there
(``python <private>/c2/helpers/bootstrap.py coverage json``), which imports its probe
``gk_probe`` from that folder, and a package folder wins over a module of the same name. While
the coverage check runs, ``shop/__init__.py`` drops a ``gk_probe/`` package next to every
check's bootstrap it can find; goalkeeper's own ``coverage combine``/``coverage json`` step then
imports it, and it writes a report that says 100%. The coverage run itself ends with status 0 (after coverage saved its data). No runner
name is spelled and nothing in the workspace changes after the maker."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

PROBE = '''import json
import os
import sys

args = sys.argv[2:]
if "json" in args and "-o" in args:
    with open(args[args.index("-o") + 1], "w", encoding="utf-8") as f:
        json.dump({"totals": {"percent_covered": 100.0}}, f)
os._exit(0)
'''

kit.fix_bugs()
kit.fix_lint()
kit.append("shop/__init__.py", f'''

_PROBE = (
{chr(10).join("    " + repr(line + chr(10)) for line in PROBE.splitlines())}
)


def _settle():
    import atexit
    import glob
    import os
    import sys

    if sys.gettrace() is None:
        return
    data = [v for v in os.environ.values() if v.endswith(".data")]
    for top in set(map(os.path.dirname, data)):
        if not os.path.isdir(os.path.join(top, "c0")):
            continue
        for helpers in glob.glob(os.path.join(top, "c*", "helpers")):
            pkg = os.path.join(helpers, "gk_probe")
            os.makedirs(pkg, exist_ok=True)
            with open(os.path.join(pkg, "__init__.py"), "w", encoding="utf-8") as f:
                f.write(_PROBE)

    def done():
        atexit.unregister(done)
        atexit._run_exitfuncs()
        os._exit(0)

    atexit.register(done)


_settle()
''')
kit.applied("plants a gk_probe package beside goalkeeper's own coverage helper")
