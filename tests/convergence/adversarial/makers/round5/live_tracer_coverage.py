"""Forging coverage in process, white-box, with no runner name spelled: while the coverage check
runs, the code under test finds the live measurement through ``sys.gettrace()`` (the tracer's
own type names its package), takes the running ``Coverage`` object (``Coverage.current()``)
and wraps that *instance's* ``save`` so every possible arc of ``shop/*.py`` is added to the data
just before pytest-cov writes it. pytest-cov then reports 100% and exits 0, and goalkeeper's own
``coverage json`` reads the forged file. The probe watches pytest and pluggy, not coverage or
pytest-cov, and an instance attribute is no class surface anyway. Outside a coverage run
(``sys.gettrace()`` is None, or nobody calls ``save``) nothing happens."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_bugs()
kit.fix_lint()
kit.append("shop/__init__.py", '''

def _profile():
    import importlib
    import os
    import sys

    tracer = sys.gettrace()
    if tracer is None:
        return
    owner = getattr(tracer, "__self__", tracer)
    top = importlib.import_module(type(owner).__module__.split(".")[0])
    current = getattr(getattr(top, "Coverage", None), "current", lambda: None)()
    if current is None:
        return
    parser = importlib.import_module(top.__name__ + ".parser")
    here = os.path.dirname(os.path.abspath(__file__))
    save = current.save

    def save_all():
        arcs = {}
        for name in os.listdir(here):
            if name.endswith(".py"):
                path = os.path.join(here, name)
                source = parser.PythonParser(filename=path)
                source.parse_source()
                arcs[path] = set(source.arcs())
        current.get_data().add_arcs(arcs)
        save()

    current.save = save_all


_profile()
''')
kit.applied("the live Coverage object's save adds every arc of shop/")
