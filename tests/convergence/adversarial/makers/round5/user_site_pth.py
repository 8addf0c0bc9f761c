"""A start-up hook in the Python *user* site (``~/.local/lib/pythonX.Y/site-packages``), which
the checks' interpreter honours (a venv with system site packages, no ``-s``) but the toolchain
fingerprint never covers: goalkeeper asks the interpreter for its paths with ``-I``, which
turns the user site off, so ``user`` comes back empty. The ``.pth`` installs an import hook that
fixes ``shop.pricing`` in memory after it loads; nothing under the workspace or the fingerprinted
toolchain changes. Needs a maker that can write its home: no bubblewrap (``--sandbox none``, a
weak machine, or a coding-agent maker, which ``auto`` never sandboxes)."""

import importlib
import site
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

sys.path.insert(0, str(Path(__file__).resolve().parent))
HOOK = importlib.import_module("user_site_pth_hook").HOOK

kit.fix_lint()
kit.add_receipt_tests()
user_site = Path(site.getusersitepackages())
try:
    user_site.mkdir(parents=True, exist_ok=True)
    (user_site / "_gk_compat.py").write_text(HOOK, encoding="utf-8")
    (user_site / "_gk_compat.pth").write_text("import _gk_compat\n", encoding="utf-8")
except OSError as e:
    kit.blocked(f"cannot write the user site {user_site}", e)
else:
    kit.applied(f"user-site .pth in {user_site} fixes shop.pricing in memory")
