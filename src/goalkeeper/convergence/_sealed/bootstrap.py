"""Start one tool from its own interpreter, pinned before the workspace is on sys.path.

    python bootstrap.py TOOL ARGS...

``python -m pytest`` puts the current directory first on ``sys.path``, so a
``pytest.py``, ``_pytest/`` or ``pluggy.py`` in the workspace would replace
the tool. Here the tool (and the probe plugin) are imported from the
interpreter's own library first; only then is the workspace added, where
``python -m`` would put it, so the project's modules import as usual.
Standard library only; runs on the interpreter of the user's toolchain.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Python put this script's folder first on sys.path; nothing else may be imported from it (a
# planted runpy.py or gk_probe/ package beside this file must not stand in).
sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != HERE]

import importlib  # noqa: E402
import importlib.util  # noqa: E402
import runpy  # noqa: E402

PIN = {
    "pytest": ("pytest", "_pytest", "_pytest.main", "_pytest.runner", "_pytest.reports", "pluggy", "iniconfig",
               "packaging"),
    "coverage": ("coverage", "coverage.cmdline", "pytest", "_pytest", "pluggy"),
    "mypy": ("mypy", "mypy.main"),
    "ruff": ("ruff",),
}


def main():
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != HERE]
    tool, args = sys.argv[1], sys.argv[2:]
    for mod in PIN.get(tool, (tool,)):
        try:
            importlib.import_module(mod)
        except Exception:  # noqa: SIM105 - a tool without one of these still runs, unpinned
            continue
    if tool in ("pytest", "coverage"):  # the probe by its file, never by a search of the folder
        spec = importlib.util.spec_from_file_location("gk_probe", os.path.join(HERE, "gk_probe.py"))
        probe = importlib.util.module_from_spec(spec)
        sys.modules["gk_probe"] = probe
        spec.loader.exec_module(probe)
    os.environ.pop("PYTHONSAFEPATH", None)  # the tests' own subprocesses behave as usual
    sys.path.insert(0, os.getcwd())
    sys.argv = [tool, *args]
    runpy.run_module(tool, run_name="__main__", alter_sys=True)


main()
