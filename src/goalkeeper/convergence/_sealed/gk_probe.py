"""goalkeeper's pytest probe: records every test outcome out of band and checks the runner.

Loaded with ``-p gk_probe`` (imported before the workspace is on sys.path).
It writes JSON to ``$GOALKEEPER_PROBE_OUT`` at the end of the session:
collected node ids, each report (nodeid, phase, outcome, xfail), deselected
items, collection errors, the exit status, and ``tampered``: functions and
classes of pytest, pluggy or this probe that were replaced while the tests
ran (code under test patching the report machinery). No report at all (the
process died or called ``os._exit``) means the run proved nothing.
"""

import json
import os
import sys
import types

_OUT = os.environ.get("GOALKEEPER_PROBE_OUT", "")
_STATE = {"collected": [], "reports": [], "deselected": [], "collectErrors": [], "exitstatus": None,
          "tampered": [], "rootdir": None, "inifile": None}
_SURFACE = {}


def _watched(name):
    return name == "pytest" or name == "gk_probe" or name.startswith(("_pytest", "pluggy"))


def _surface():
    out = {}
    for name, mod in list(sys.modules.items()):
        if not isinstance(mod, types.ModuleType) or not _watched(name):
            continue
        for attr, val in list(vars(mod).items()):
            if isinstance(val, (types.FunctionType, type)) and getattr(val, "__module__", None) == name:
                out[name + "." + attr] = id(val)
                if isinstance(val, type):
                    for k, v in list(vars(val).items()):
                        if isinstance(v, (types.FunctionType, classmethod, staticmethod, property)):
                            out[name + "." + attr + "." + k] = id(v)
    return out


def _check(where):
    now = _surface()
    for key, ident in _SURFACE.items():
        if now.get(key) != ident and key not in _STATE["tampered"]:
            _STATE["tampered"].append(key)


def pytest_configure(config):
    _SURFACE.update(_surface())
    _STATE["rootdir"] = str(getattr(config, "rootpath", ""))
    _STATE["inifile"] = str(getattr(config, "inipath", "") or "")


def pytest_collectreport(report):
    if report.failed:
        _STATE["collectErrors"].append(report.nodeid or "<session>")


def pytest_deselected(items):
    _STATE["deselected"].extend(i.nodeid for i in items)


def pytest_collection_finish(session):
    _STATE["collected"] = [i.nodeid for i in session.items]
    _check("collection")


def pytest_runtest_logreport(report):
    _STATE["reports"].append({"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome,
                              "xfail": bool(getattr(report, "wasxfail", None) is not None)})


def _write():
    if not _OUT:
        return
    tmp = _OUT + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(_STATE, f)
    os.replace(tmp, _OUT)


def pytest_sessionfinish(session, exitstatus):
    _check("finish")
    _STATE["exitstatus"] = int(exitstatus)
    _write()
