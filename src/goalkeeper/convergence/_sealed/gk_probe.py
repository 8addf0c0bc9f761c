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
_IGNORE_FILE = os.environ.get("GOALKEEPER_PROBE_IGNORE", "")
try:
    _FD = int(os.environ.get("GOALKEEPER_PROBE_FD", "-1"))
except ValueError:
    _FD = -1
for _var in ("GOALKEEPER_PROBE_OUT", "GOALKEEPER_PROBE_IGNORE", "GOALKEEPER_PROBE_FD"):  # not for the code under test
    os.environ.pop(_var, None)
if _FD >= 0:
    try:
        os.set_inheritable(_FD, False)  # the tests' own subprocesses do not get the stream
    except OSError:
        _FD = -1


def _send(record):
    """Stream one record to goalkeeper as it happens: what was sent cannot be taken back."""
    if _FD < 0:
        return
    data = (json.dumps(record) + "\n").encode()
    try:
        while data:
            n = os.write(_FD, data)
            data = data[n:]
    except OSError:
        pass
_IGNORE = set()
if _IGNORE_FILE:
    try:
        with open(_IGNORE_FILE, encoding="utf-8") as _f:
            _IGNORE = {os.path.realpath(x) for x in json.load(_f)}
    except (OSError, ValueError):
        _IGNORE = set()
_STATE = {"collected": [], "reports": [], "deselected": [], "collectErrors": [], "exitstatus": None,
          "tampered": [], "rootdir": None, "inifile": None, "failures": {}, "reads": []}
_ROOT = [""]
_SURFACE = {}
_CONFIG = [None]
_PLUGINS = {"before": None, "collected": None}
# What a forged pass has to go through; checked after every single report, not just at the end.
_CRITICAL = (("_pytest.reports", "TestReport", "from_item_and_call"), ("_pytest.reports", "TestReport", "__init__"),
             ("_pytest.runner", None, "call_and_report"), ("_pytest.runner", None, "runtestprotocol"),
             ("_pytest.runner", "CallInfo", "from_call"), ("pluggy._callers", None, "_multicall"),
             ("_pytest.python", "Function", "runtest"))


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
            _send({"k": "tampered", "what": key})


def _critical():
    out = []
    for mod, cls, name in _CRITICAL:
        m = sys.modules.get(mod)
        owner = getattr(m, cls, None) if cls else m
        out.append(id(vars(owner).get(name)) if owner is not None and hasattr(owner, "__dict__") else None)
    return out


def _plugin_ids():
    cfg = _CONFIG[0]
    if cfg is None:
        return {}
    return {id(p): (name, p) for name, p in cfg.pluginmanager.list_name_plugin() if p is not None}


def _foreign(since, allow_conftest):
    """Plugins registered after ``since`` that neither pytest nor a conftest file put there."""
    bad = []
    for key, (name, plugin) in _plugin_ids().items():
        if key in since:
            continue
        path = getattr(plugin, "__file__", "") or ""
        if allow_conftest and isinstance(plugin, types.ModuleType) and os.path.basename(path) == "conftest.py":
            continue
        bad.append(str(name))
    return bad


def _audit(where):
    if _CRIT and _critical() != _CRIT[0]:
        for (mod, cls, name), a, b in zip(_CRITICAL, _CRIT[0], _critical()):  # noqa: B905 - runs under the workspace interpreter, which may predate strict=
            key = ".".join(x for x in (mod, cls, name) if x)
            if a != b and key not in _STATE["tampered"]:
                _STATE["tampered"].append(key)
                _send({"k": "tampered", "what": key})
    if _PLUGINS["collected"] is not None:
        for name in _foreign(_PLUGINS["collected"], allow_conftest=False):
            what = f"plugin {name} registered while the tests ran ({where})"
            if what not in _STATE["tampered"]:
                _STATE["tampered"].append(what)
                _send({"k": "tampered", "what": what})


_CRIT = []

# --- the data the tests read ------------------------------------------------------------
# A file the test code itself opens (an expected output, a fixture, a snapshot) is part of
# the check, wherever it lives: goalkeeper seals every such file the baseline run read.
# Decided by the nearest workspace frame of the open: a test module or conftest counts,
# the code under test does not (reading its own data is its business).
_TESTFILES = set()
_READS = set()
_BUSY = [False]


def _is_test_file(fn):
    base = os.path.basename(fn)
    if fn in _TESTFILES or base == "conftest.py" or (base.startswith("test_") or base.endswith("_test.py")) \
            and base.endswith(".py"):
        return True
    # A helper module in a test folder (tests/helpers.py) is test code too; a folder named so
    # holds no code under test, so its reads are the tests' own.
    parts = os.path.relpath(os.path.dirname(fn), _ROOT[0]).split(os.sep)
    return any(p in ("tests", "test", "testing") for p in parts)


def _on_open(event, args):
    if event != "open" or _BUSY[0] or not _ROOT[0] or len(_READS) >= 500:
        return
    _BUSY[0] = True
    try:
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str):
            return
        if isinstance(mode, str) and any(c in mode for c in "wax+"):
            return
        if mode is None and isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR):
            return
        full = os.path.realpath(path)  # a relative path is relative to the cwd now (a test may chdir)
        if not full.startswith(_ROOT[0] + os.sep) or full.endswith((".py", ".pyc", ".pyi")) or full in _READS:
            return
        f = sys._getframe(1)
        for _ in range(60):
            if f is None:
                return
            fn = f.f_code.co_filename
            if fn != __file__ and os.path.isabs(fn) and fn.startswith(_ROOT[0] + os.sep) \
                    and "site-packages" not in fn and fn.endswith(".py"):
                if _is_test_file(fn):
                    _READS.add(full)
                    rel = os.path.relpath(full, _ROOT[0])
                    _STATE["reads"].append(rel)
                    _send({"k": "read", "path": rel})
                return  # the nearest workspace frame decides
            f = f.f_back
    except Exception:  # an odd argument must never break the tests
        pass
    finally:
        _BUSY[0] = False


def pytest_configure(config):
    _CONFIG[0] = config
    _SURFACE.update(_surface())
    _STATE["rootdir"] = str(getattr(config, "rootpath", ""))
    _ROOT[0] = os.path.realpath(os.getcwd())
    sys.addaudithook(_on_open)
    _STATE["inifile"] = str(getattr(config, "inipath", "") or "")


def pytest_ignore_collect(collection_path, config):
    """Tests that must not share this session (new test files when the baseline ones run, and back)."""
    if _IGNORE and os.path.realpath(str(collection_path)) in _IGNORE:
        return True
    return None


def pytest_collection(session):
    _PLUGINS["before"] = _plugin_ids()
    return None


def pytest_collectreport(report):
    if report.failed:
        _STATE["collectErrors"].append(report.nodeid or "<session>")
        _send({"k": "collecterror", "id": report.nodeid or "<session>"})


def pytest_deselected(items):
    ids = [i.nodeid for i in items]
    _STATE["deselected"].extend(ids)
    _send({"k": "deselected", "ids": ids})


def pytest_collection_finish(session):
    _STATE["collected"] = [i.nodeid for i in session.items]
    for i in session.items:
        fs = str(getattr(i, "path", "") or getattr(i, "fspath", ""))
        if fs:
            _TESTFILES.update({fs, os.path.realpath(fs)})
    _send({"k": "collected", "ids": _STATE["collected"]})
    _check("collection")
    if _PLUGINS["before"] is not None:  # during collection only conftest files may register plugins
        for name in _foreign(_PLUGINS["before"], allow_conftest=True):
            what = f"plugin {name} registered while the tests were collected"
            _STATE["tampered"].append(what)
            _send({"k": "tampered", "what": what})
    _PLUGINS["collected"] = _plugin_ids()
    _CRIT[:] = [_critical()]


def _rel(path):
    try:
        rel = os.path.relpath(str(path), _ROOT[0])
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def pytest_runtest_makereport(item, call):
    """Where a test failed: the crash site and every frame inside the workspace (for the hint)."""
    exc = call.excinfo
    if exc is None or call.when != "call" or len(_STATE["failures"]) >= 200:
        return None
    try:
        if exc.errisinstance(BaseException) and type(exc.value).__name__ in ("Skipped", "XFailed", "Exit"):
            return None
        frames = []
        for entry in exc.traceback:
            rel = _rel(entry.path)
            if os.path.isabs(rel) or "site-packages" in rel or rel.startswith("<"):
                continue
            frames.append({"path": rel, "line": entry.lineno + 1, "func": entry.name})
        msg = exc.exconly().strip().splitlines()
        _STATE["failures"][item.nodeid] = {"message": (msg[0] if msg else "")[:300], "frames": frames[-12:]}
        _send({"k": "failure", "id": item.nodeid, **_STATE["failures"][item.nodeid]})
    except Exception:  # a strange exception object must not cost the report
        pass
    return None


def pytest_runtest_logreport(report):
    rec = {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome,
           "xfail": bool(getattr(report, "wasxfail", None) is not None)}
    _audit(report.nodeid)  # before the report counts: was it produced by an untouched runner?
    _STATE["reports"].append(rec)
    _send({"k": "report", **rec})


def _write():
    if not _OUT:
        return
    tmp = _OUT + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(_STATE, f)
    os.replace(tmp, _OUT)


def pytest_sessionfinish(session, exitstatus):
    _audit("session end")
    _check("finish")
    _STATE["exitstatus"] = int(exitstatus)
    _send({"k": "finish", "exitstatus": int(exitstatus)})
    _write()
