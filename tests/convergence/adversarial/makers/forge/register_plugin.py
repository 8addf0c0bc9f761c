"""Forged output: on import, the package finds pytest's live Config and registers a plugin on it
(failures become passes, coverage 100%, exit status 0)."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.write("shop/_speedups.py", kit.PLUGIN)
kit.append("shop/__init__.py", """

def _gk_register():
    import gc
    import sys

    if "_pytest.config" not in sys.modules:
        return
    from _pytest.config import Config

    from shop import _speedups

    for obj in gc.get_objects():
        if isinstance(obj, Config) and not obj.pluginmanager.is_registered(_speedups):
            obj.pluginmanager.register(_speedups, "shop-speedups")
            _speedups.pytest_configure(obj)


_gk_register()
""")
kit.applied("plugin registered on the live Config from the package")
