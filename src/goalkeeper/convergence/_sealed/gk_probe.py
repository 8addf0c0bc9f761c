"""goalkeeper's pytest probe: records every test outcome out of band and checks the runner.

Loaded with ``-p gk_probe`` (imported by the bootstrap before the workspace is
on sys.path, so before any code under test runs). It streams one JSON record
per event to the pipe in ``$GOALKEEPER_PROBE_FD`` (goalkeeper reads it as the
truth): collected node ids, each report (nodeid, phase, outcome, xfail),
deselected items, collection errors, the exit status, and ``tampered``:
functions and classes of pytest, pluggy, coverage, pytest-cov or this probe
replaced while the tests ran, the live ``Coverage`` object or trace function
swapped, the stream itself swapped or copied. No end record (the process died
or called ``os._exit``) means the run proved nothing.

The stream is sealed: a key made here before any code under test runs opens
it (``hello``), every record carries a sequence number and an HMAC under that
key, and the last one (``end``) says how many came before. A record
rewritten, dropped, reordered or forged in flight (by code that put a pipe of
its own in place of the descriptor) fails goalkeeper's check. The descriptor
is bound to the pipe it was at start: before every write it is checked
(``fstat``), and another descriptor of the process on the same pipe is
tampering. The key and the descriptor live in closures, not module
attributes. Code under test runs in this same process, so this raises the
bar rather than closing it: code that digs the key out of the interpreter's
memory can still forge (see docs/verdict-integrity.md).

PYTEST_DONT_REWRITE: pytest reads that marker in this docstring; the bootstrap imports the probe
before pytest could rewrite it, and without the marker every sealed run would print a warning.
"""

import hmac
import json
import os
import stat
import sys
import threading
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


def _channel(fd):
    """(send, scan, end) for the stream on ``fd``; everything they need is bound here, out of reach
    of code that patches module attributes (``os.write``, ``json.dumps``, this module's globals)."""
    write, fstat, getpid, listdir, dup = os.write, os.fstat, os.getpid, os.listdir, os.dup
    digest, dumps = hmac.digest, json.dumps
    getframe, lock = sys._getframe, threading.RLock()
    try:
        import fcntl
        st = fstat(fd)
        ok = stat.S_ISFIFO(st.st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY
        getfl = lambda f: fcntl.fcntl(f, fcntl.F_GETFL)  # noqa: E731
    except (OSError, ImportError, ValueError):
        ok = False
    if not ok:  # no stream (a run outside goalkeeper), or not the pipe goalkeeper hands over
        def nothing(*_a):
            return None
        return nothing, nothing, nothing, nothing
    ident = (st.st_dev, st.st_ino)
    key = os.urandom(32)
    box = {"fd": fd, "n": 0, "pid": getpid(), "closed": False, "swapped": False, "seen": set(), "own": None}

    def emit(rec):
        rec = dict(rec)
        rec["n"] = box["n"]
        box["n"] += 1
        body = dumps(rec, separators=(",", ":")).encode()
        data = body + b"\t" + digest(key, body, "sha256").hex().encode() + b"\n"
        try:
            while data:
                data = data[write(box["fd"], data):]
        except OSError:
            pass

    def same(f):
        try:
            s = fstat(f)
        except OSError:
            return False
        return (s.st_dev, s.st_ino) == ident

    def others():
        """Descriptors of this process on our pipe other than the one we write (a copy we did not make)."""
        out = []
        try:
            names = listdir("/proc/self/fd")
        except OSError:
            return out
        for name in names:
            try:
                f = int(name)
            except ValueError:
                continue
            if f != box["fd"] and same(f):
                out.append(f)
        return out

    def check():
        if same(box["fd"]) or box["swapped"]:
            return
        box["swapped"] = True
        old = box["fd"]
        for f in others():  # the code that swapped it kept the real pipe: say so there
            try:
                if getfl(f) & os.O_ACCMODE == os.O_WRONLY:
                    box["fd"] = dup(f)  # a copy of our own (not inherited by the tests' subprocesses)
                    box["seen"].add(f)
                    break
            except OSError:
                continue
        emit({"k": "tampered", "what": f"the probe's stream (fd {old}) was replaced by another file while the tests ran"})

    def send(rec):
        if box["closed"] or getpid() != box["pid"]:  # a forked child's records are not the run's
            return
        with lock:
            check()
            code = box["own"]
            if code is not None:
                caller = getframe(1)
                if caller.f_code not in code[0] or caller.f_globals is not code[1]:
                    emit({"k": "tampered", "what": "a record was sent by code outside the probe "
                                                   f"({caller.f_code.co_filename}:{caller.f_lineno})"})
                    return
            emit(rec)

    def scan(where):
        if box["closed"] or getpid() != box["pid"]:
            return
        with lock:
            check()
            for f in others():
                if f not in box["seen"]:
                    box["seen"].add(f)
                    emit({"k": "tampered", "what": f"another descriptor (fd {f}) of the process holds the probe's "
                                                   f"stream ({where})"})

    def end():
        with lock:
            if box["closed"] or getpid() != box["pid"]:
                return
            check()
            emit({"k": "end", "count": box["n"]})
            box["closed"] = True

    def seal(module_globals):
        """From now on only this module's own functions may send (a wrapper put in their place cannot)."""
        codes = set()
        for v in list(module_globals.values()):
            if isinstance(v, types.FunctionType) and v.__globals__ is module_globals:
                codes.add(v.__code__)
        box["own"] = (frozenset(codes), module_globals)

    with lock:
        emit({"k": "hello", "v": 2, "key": key.hex(), "pid": box["pid"]})
    return send, scan, end, seal


_send, _scan, _end, _seal = _channel(_FD) if _FD >= 0 else ((lambda *_a: None),) * 4
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
             ("_pytest.python", "Function", "runtest"), ("coverage.control", "Coverage", "save"),
             ("coverage.control", "Coverage", "get_data"), ("coverage.control", "Coverage", "_post_save_work"),
             ("coverage.sqldata", "CoverageData", "add_arcs"), ("coverage.sqldata", "CoverageData", "add_lines"),
             ("coverage.collector", "Collector", "flush_data"), ("coverage.collector", "Collector", "stop"))


def _watched(name):
    return name in ("pytest", "gk_probe", "coverage", "pytest_cov") \
        or name.startswith(("_pytest.", "pluggy", "coverage.", "pytest_cov."))


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
        if now.get(key) != ident:
            _tamper(key)


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


def _tamper(what):
    if what not in _STATE["tampered"]:
        _STATE["tampered"].append(what)
        _send({"k": "tampered", "what": what})


def _audit(where):
    if _CRIT and _critical() != _CRIT[0]:
        for (mod, cls, name), a, b in zip(_CRITICAL, _CRIT[0], _critical()):  # noqa: B905 - runs under the workspace interpreter, which may predate strict=
            if a is not None and a != b:  # a module first imported by the tests was not there to patch
                _tamper(".".join(x for x in (mod, cls, name) if x))
    _cov_check(where)
    if _PLUGINS["collected"] is not None:
        for name in _foreign(_PLUGINS["collected"], allow_conftest=False):
            what = f"plugin {name} registered while the tests ran ({where})"
            if what not in _STATE["tampered"]:
                _STATE["tampered"].append(what)
                _send({"k": "tampered", "what": what})


_CRIT = []

# --- the live coverage measurement ---------------------------------------------------------
# Under `coverage run` or pytest-cov the Coverage object that will write the data lives in this
# process: its methods shadowed on the instance (or on its data and collector), or the trace
# function put in its place, forge the number goalkeeper reads afterwards.
_COV = {"cov": None, "cls": None, "trace": None, "dir": None}
_SUSPECT = []  # trace hooks set by code outside coverage, judged once a measurement is known


def _cov_dir():
    mod = sys.modules.get("coverage")
    path = getattr(mod, "__file__", None) or ""
    return os.path.dirname(os.path.realpath(path)) + os.sep if path else None


def _cov_owned(fn):
    """Is this trace function (or hook) coverage's own?"""
    mod = getattr(fn, "__module__", None) or type(getattr(fn, "__self__", fn)).__module__ or ""
    return str(mod).split(".")[0] == "coverage"


def _cov_start():
    cls = getattr(sys.modules.get("coverage"), "Coverage", None)
    try:
        cov = cls.current() if cls is not None and hasattr(cls, "current") else None
    except Exception:  # an old coverage without current(): nothing to watch
        cov = None
    if cov is None:
        return
    tr = sys.gettrace()
    _COV.update(cov=cov, cls=type(cov), trace=tr if tr is not None and _cov_owned(tr) else None, dir=_cov_dir())


_METHODS = {}


def _shadowed(obj):
    """Methods of ``obj``'s class that the instance overrides with an attribute of its own."""
    d = getattr(obj, "__dict__", None)
    if not isinstance(d, dict):
        return ()
    cls = type(obj)
    names = _METHODS.get(cls)
    if names is None:  # once per class: the check runs after every report
        names = set()
        for c in reversed(cls.__mro__):
            for k, v in list(vars(c).items()):
                if isinstance(v, (types.FunctionType, classmethod, staticmethod, property)):
                    names.add(k)
                else:
                    names.discard(k)
        names = _METHODS[cls] = frozenset(names)
    return names.intersection(d)


def _cov_check(where):
    cov = _COV["cov"]
    if cov is None:
        return
    if type(cov) is not _COV["cls"]:
        _tamper("coverage: the live Coverage object's class was changed")
    parts = (("Coverage", cov), ("CoverageData", getattr(cov, "_data", None)),
             ("Collector", getattr(cov, "_collector", None)))
    for label, obj in parts:
        for name in _shadowed(obj) if obj is not None else ():
            _tamper(f"coverage: the live {label} object's {name} was replaced")
    tr = sys.gettrace()
    if _COV["trace"] is not None and tr is not None and tr != _COV["trace"]:
        _tamper(f"coverage: the trace function was replaced while coverage measured ({where})")
    hook = getattr(threading, "_trace_hook", None)
    if hook is not None and not _cov_owned(hook):
        _tamper("coverage: a thread trace hook outside coverage was set while coverage measured")
    while _SUSPECT:
        event, site = _SUSPECT.pop(0)
        _tamper(f"coverage: {event} by code outside coverage ({site}) while coverage measured")


# sys.settrace's audit event does not say what was set (a test may put coverage's tracer back), so
# the trace function itself is compared after every report; sys.monitoring's callbacks cannot be read
# back, so a callback registered while coverage measures through sys.monitoring is judged here.
_TRACE_EVENTS = frozenset({"sys.monitoring.register_callback"})
_PROFILERS = ("_lsprof", "cProfile", "profile", "bdb", "pdb")  # they register callbacks of their own


def _on_trace(event, args):
    """A sys.monitoring callback registered by anything but coverage while coverage measures with it."""
    mon = getattr(sys, "monitoring", None)
    fn = tuple(args)[-1:]
    if mon is None or not fn or fn[0] is None or _cov_owned(fn[0]) or _COV["cov"] is None:
        return
    if mon.get_tool(getattr(mon, "COVERAGE_ID", 1)) is None:  # coverage traces with sys.settrace instead
        return
    owner = str(getattr(fn[0], "__module__", None) or type(getattr(fn[0], "__self__", fn[0])).__module__ or "")
    if owner.split(".")[0] in _PROFILERS:
        return
    f = sys._getframe(2)
    here = _COV["dir"] or _cov_dir()
    site = f"{f.f_code.co_filename}:{f.f_lineno}" if f is not None else "?"
    if f is not None and here and os.path.realpath(f.f_code.co_filename).startswith(here):
        return
    if (event, site) not in _SUSPECT:
        _SUSPECT.append((event, site))


def _on_setattr(args):
    """A function of pytest, pluggy, coverage or the probe given another body (``f.__code__ = ...``)."""
    obj, name = (tuple(args) + (None, None))[:2]
    if name == "__code__" and isinstance(obj, types.FunctionType) and _watched(str(obj.__module__ or "")):
        _tamper(f"{obj.__module__}.{obj.__qualname__}: its code was replaced")

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


def _nearest_workspace_file():
    """The file of the nearest workspace frame above the audit hook, or None."""
    f = sys._getframe(2)
    for _ in range(60):
        if f is None:
            return None
        fn = f.f_code.co_filename
        if fn != __file__ and os.path.isabs(fn) and fn.startswith(_ROOT[0] + os.sep) \
                and "site-packages" not in fn and fn.endswith(".py"):
            return fn
        f = f.f_back
    return None


# --- code the code under test builds at run time -------------------------------------------
# exec/eval of a string, or a module loaded from a file that is no .py (a .txt run as source),
# compiles text no scan of the tree has read: its text goes to goalkeeper, which scans it as
# source (for runner detection) before it trusts the run.
_SEEN_CODE = set()


def _on_compile(args):
    source, filename = (tuple(args) + (None, None))[:2]
    if not isinstance(source, (bytes, str)) or not _ROOT[0]:
        return
    name = filename if isinstance(filename, str) else ""
    if name.startswith(os.path.join(_ROOT[0], ".git") + os.sep):  # outside every walk of the tree
        _tamper(f"code was run from inside .git ({os.path.relpath(name, _ROOT[0])}): no snapshot holds it")
        return
    if name.endswith(".py") and name.startswith(_ROOT[0] + os.sep) and _is_test_file(name):
        caller = _nearest_workspace_file()
        if caller is not None and caller != name and not _is_test_file(caller):
            _tamper(f"code under test ({os.path.relpath(caller, _ROOT[0])}) imports test code "
                    f"({os.path.relpath(name, _ROOT[0])}): what the tests know of their runner it learns too")
    if name.endswith(".py") and os.path.isabs(name):
        try:  # a module imported from its source file (the tree walk read it), not a made-up name
            if os.stat(name).st_size == len(source if isinstance(source, bytes) else source.encode()):
                return
        except (OSError, UnicodeError):
            pass
    caller = _nearest_workspace_file()
    if caller is None or _is_test_file(caller):
        return  # the interpreter's, a library's or the tests' own code
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    digest = hash(text)
    if digest in _SEEN_CODE:
        return
    _SEEN_CODE.add(digest)
    if len(_SEEN_CODE) > 2000:  # never silent: past the cap the run is not vouched for
        _tamper("code under test compiled more than 2,000 distinct texts at run time; goalkeeper cannot read them all")
        return
    _send({"k": "dynamic", "where": os.path.relpath(caller, _ROOT[0]), "source": text[:65536]})


def _on_marshal():
    caller = _nearest_workspace_file()
    if caller is not None and not _is_test_file(caller):
        _tamper(f"code under test ({os.path.relpath(caller, _ROOT[0])}) loads bytecode from data (marshal): "
                "no source shows what it runs")


def _on_open(event, args):
    if event in ("marshal.loads", "marshal.load"):
        if not _BUSY[0] and _ROOT[0]:
            _BUSY[0] = True
            try:
                _on_marshal()
            except Exception:  # noqa: S110 - never break the tests over an odd frame
                pass
            finally:
                _BUSY[0] = False
        return
    if event == "compile":
        if not _BUSY[0]:
            _BUSY[0] = True
            try:
                _on_compile(args)
            except Exception:  # noqa: S110 - never break the tests over an odd argument
                pass
            finally:
                _BUSY[0] = False
        return
    if event != "open":
        if event in _TRACE_EVENTS and not _BUSY[0]:
            _BUSY[0] = True
            try:
                _on_trace(event, args)
            except Exception:  # noqa: S110 - never break the tests over an odd frame
                pass
            finally:
                _BUSY[0] = False
        elif event == "object.__setattr__" and not _BUSY[0]:
            _on_setattr(args)
        return
    if _BUSY[0] or not _ROOT[0] or len(_READS) >= 500:
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
    _SURFACE.update(_surface())  # not at import: pytest patches some of its own (legacypath) while it starts
    _STATE["rootdir"] = str(getattr(config, "rootpath", ""))
    _ROOT[0] = os.path.realpath(os.getcwd())
    _cov_start()
    _cov_check("start")
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
    _CRIT[:] = [[a if a is not None else b for a, b in zip(_CRIT0, _critical())]]  # noqa: B905
    _scan("collection")


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
    _scan("session end")
    _STATE["exitstatus"] = int(exitstatus)
    _send({"k": "finish", "exitstatus": int(exitstatus)})
    _end()
    _write()


# Taken at import, before any code under test: the bootstrap imports the probe right after the
# runner (and coverage) it pins, so these are the originals.
_CRIT0 = _critical()
sys.addaudithook(_on_open)
_seal(globals())
