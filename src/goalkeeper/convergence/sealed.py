"""Stopping conditions run in a sealed environment, judged from structured reports.

For each condition goalkeeper resolves the program itself (:mod:`.toolchain`)
and, where it knows the tool, instruments it:

* **pytest** (``pytest``, ``python -m pytest``, ``coverage run -m pytest``)
  starts from its own interpreter through a bootstrap that pins pytest
  before the workspace is on ``sys.path``, with goalkeeper's probe plugin
  recording every outcome to a private file. Outcomes are compared with the
  baseline run: every baseline test must run and pass, skips and
  deselections may not rise, replaced runner functions are tampering, and no
  report means the run proved nothing;
* **coverage** writes its data to a private file and goalkeeper reads the
  total from ``coverage json`` run by itself;
* **ruff** reports JSON (``--output-format json --no-cache``).

Every check runs with a private pycache (planted bytecode is never read),
no bytecode writes, private tool caches, and none of the caller's
``PYTHON*``/``PYTEST_*``/``COVERAGE_*`` variables; each step gets folders of
its own and, with bubblewrap, runs in a box (:mod:`.checkbox`). Static tools (ruff, mypy,
flake8) never execute the code under test, so with their config and
toolchain sealed, their verdict is sound; test runners execute it, which is
why their results come from the probe. A condition goalkeeper cannot
instrument is judged by exit code and summary as before and marked
``unsealed``.
"""

from __future__ import annotations

import hmac
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..proc import ProcResult, Runner, run_argv
from .toolchain import Resolved

__all__ = [
    "DROPPED_ENV",
    "Outcomes",
    "SealedCommand",
    "collect",
    "coverage_report",
    "coverage_total",
    "helper_bytes",
    "install_helpers",
    "prepare",
    "sealed_env",
    "tests_verdict",
    "unmeasured",
]

_DROP_PREFIXES = ("PYTHON", "PYTEST_", "COVERAGE_", "COV_CORE_", "RUFF_", "MYPY", "GOALKEEPER_", "VIRTUAL_ENV")
DROPPED_ENV = ("LD_PRELOAD", "LD_AUDIT", "PIP_", "BASH_ENV", "ENV")
_HERE = Path(__file__).with_name("_sealed")
_RUFF_SUBCOMMANDS = frozenset({"check", "format", "rule", "config", "linter", "clean", "version", "help",
                               "server", "analyze"})


def sealed_env(base: Mapping[str, str], private: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a check runs in: the caller's, minus what steers the tools, plus private caches."""
    env = {k: v for k, v in base.items()
           if not k.startswith(_DROP_PREFIXES) and k not in DROPPED_ENV and not k.startswith("PIP_")}
    env.update({
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPYCACHEPREFIX": str(private / "pycache"),
        "COVERAGE_FILE": str(private / "coverage.data"),
        "MYPY_CACHE_DIR": str(private / "mypy-cache"),
        "RUFF_CACHE_DIR": str(private / "ruff-cache"),
        "PYTEST_ADDOPTS": "-p no:cacheprovider",
        "GOALKEEPER_PROBE_OUT": str(private / "probe.json"),
    })
    env.update(extra or {})
    return env


@dataclass(frozen=True, slots=True)
class SealedCommand:
    argv: list[str]
    tool: str | None
    sealed: bool
    probe: Path | None = None
    coverage_python: str | None = None
    ruff_json: bool = False

    @property
    def side_channel(self) -> str | None:
        return "GOALKEEPER_PROBE_FD" if self.probe is not None else None


HELPERS = ("bootstrap.py", "gk_probe.py")


def helper_bytes() -> dict[str, bytes]:
    """The helpers as goalkeeper ships them (what a step's folder must hold, byte for byte)."""
    return {name: (_HERE / name).read_bytes() for name in HELPERS}


def install_helpers(d: Path) -> Path:
    """Fresh copies of the bootstrap and probe in ``d``, a folder made for one step (see :mod:`.checkbox`).

    The bootstrap imports the probe by name from its own folder, so that folder must be one
    nothing else can have written: never a folder an earlier step (or the code it ran) could reach.
    """
    d.mkdir(parents=True, exist_ok=True)
    for name in HELPERS:
        target = d / name
        if not target.exists():
            shutil.copyfile(_HERE / name, target)
    return d / "bootstrap.py"


def _pytest_args(args: list[str]) -> list[str]:
    return [*args, "-p", "gk_probe"]


def prepare(res: Resolved, helpers: Path, out: Path | None = None) -> SealedCommand:
    """The argv to run for a resolved condition command, instrumented where we can.

    ``helpers`` receives the bootstrap and probe (the check only reads it); ``out`` is where the
    probe's report goes (the check's writable scratch; ``helpers`` when not given).
    """
    tool, interp = res.tool, res.interpreter
    if tool == "ruff" and res.executable:
        # `ruff` itself, or `python -m ruff` (started through the bootstrap, so ./ruff/ cannot stand in)
        head = [interp, str(install_helpers(helpers)), "ruff"] if interp else [res.executable]
        args = list(res.tool_args)
        sub = args[0] if args and not args[0].startswith("-") and args[0] in _RUFF_SUBCOMMANDS else None
        if sub in (None, "check"):
            rest = args[1:] if sub else args
            return SealedCommand([*head, "check", *rest, "--output-format", "json", "--no-cache"],
                                 "ruff", True, ruff_json=True)
        return SealedCommand([*head, *args], "ruff", True)
    if interp is None or tool is None:
        return SealedCommand(list(res.argv), tool, tool in ("mypy", "ruff"))
    boot = install_helpers(helpers)
    probe = (out or helpers) / "probe.json"
    if tool == "pytest":
        return SealedCommand([interp, str(boot), "pytest", *_pytest_args(res.tool_args)], "pytest", True, probe,
                             coverage_python=interp)
    if tool == "coverage":
        args = list(res.tool_args)
        if args[:1] == ["run"] and "-m" in args:
            i = args.index("-m")
            if i + 1 < len(args) and args[i + 1] == "pytest":
                args = [*args[:i + 2], *_pytest_args(args[i + 2:])]
                return SealedCommand([interp, str(boot), "coverage", *args], "coverage", True, probe, interp)
        return SealedCommand([interp, str(boot), "coverage", *args], "coverage", True, None, interp)
    # another module (unittest, mypy, ...): pinned by the bootstrap, judged by exit code and summary
    return SealedCommand([interp, str(boot), tool, *res.tool_args], tool, tool == "mypy")


# --- reading what the tools reported ------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Outcomes:
    """Final outcome per test node id, from the probe."""

    by_id: Mapping[str, str]
    deselected: int = 0
    collect_errors: tuple[str, ...] = ()
    tampered: tuple[str, ...] = ()
    exitstatus: int | None = None
    counts: Mapping[str, int] = field(default_factory=dict)
    failures: Mapping[str, Any] = field(default_factory=dict)
    reads: tuple[str, ...] = ()  # data files the test code opened (workspace-relative)
    dynamic: tuple[tuple[str, str], ...] = ()  # (caller, text): code under test compiled at run time

    def dump(self) -> dict[str, Any]:
        return {"byId": dict(self.by_id), "deselected": self.deselected, "collectErrors": list(self.collect_errors),
                "tampered": list(self.tampered), "exitstatus": self.exitstatus, "counts": dict(self.counts),
                "failures": dict(self.failures), "reads": list(self.reads),
                "dynamic": [list(d) for d in self.dynamic]}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Outcomes:
        fails = data.get("failures")
        return cls({str(k): str(v) for k, v in (data.get("byId") or {}).items()}, int(data.get("deselected") or 0),
                   tuple(data.get("collectErrors") or ()), tuple(data.get("tampered") or ()),
                   data.get("exitstatus"), dict(data.get("counts") or {}), dict(fails) if isinstance(fails, dict) else {},
                   tuple(map(str, data.get("reads") or ())), _dynamic(data.get("dynamic")))

    def summary(self) -> str:
        c = self.counts
        parts = [f"{c.get('passed', 0)} passed"]
        parts += [f"{c[k]} {k}" for k in ("failed", "error", "skipped", "xfailed", "xpassed") if c.get(k)]
        if self.deselected:
            parts.append(f"{self.deselected} deselected")
        return "pytest: " + ", ".join(parts)


def _final(reports: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for r in reports:
        nid, when, outcome, xf = str(r.get("nodeid")), r.get("when"), r.get("outcome"), bool(r.get("xfail"))
        prev = out.get(nid)
        if outcome == "failed":
            out[nid] = "failed" if when == "call" else "error"
        elif outcome == "skipped" and prev not in ("failed", "error"):
            out[nid] = "xfailed" if xf else "skipped"
        elif outcome == "passed" and when == "call" and prev is None:
            out[nid] = "xpassed" if xf else "passed"
    return out


def _records(side: bytes) -> tuple[list[dict[str, Any]], list[str], bool] | None:
    """The probe's sealed records in order, what is wrong with the stream, and whether it ended.

    The first line opens the stream with the key (sent before any code under test ran); every
    line is ``JSON<TAB>HMAC`` over that key, numbered from 0, and the ``end`` record says how many
    came before it. A line that fails its HMAC was rewritten or forged, a missing number was
    dropped, a repeated one replayed, and anything numbered after ``end`` came later. None when
    the probe never opened the stream (nothing to judge)."""
    lines = [ln for ln in side.split(b"\n") if ln.strip()]
    if not lines:
        return None
    first = _sealed_json(lines[0], None)
    if first is None or first.get("k") != "hello" or first.get("n") != 0:
        return [], ["the probe's stream does not open with its seal (written by something else)"], False
    try:
        key = bytes.fromhex(str(first.get("key")))
    except ValueError:
        key = b""
    if len(key) != 32 or _sealed_json(lines[0], key) is None:
        return [], ["the probe's stream does not open with its seal (written by something else)"], False
    by_n: dict[int, dict[str, Any]] = {}
    forged = replayed = 0
    for line in lines[1:]:
        rec = _sealed_json(line, key)
        n = rec.get("n") if rec is not None else None
        if rec is None or not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            forged += 1
        elif n in by_n:
            replayed += 1
        else:
            by_n[n] = rec
    problems = []
    if forged:
        problems.append(f"{forged} record(s) of the probe's stream failed their seal (rewritten or forged in flight)")
    if replayed:
        problems.append(f"{replayed} record(s) of the probe's stream were repeated")
    ends = [n for n, r in by_n.items() if r.get("k") == "end"]
    last = min(ends) if ends else None
    if last is not None:
        if by_n[last].get("count") != last:
            problems.append("the probe's end record does not count the records before it")
        missing = [n for n in range(1, last) if n not in by_n]
        if missing:
            problems.append(f"{len(missing)} record(s) of the probe's stream were dropped in flight")
        if any(n > last for n in by_n):
            problems.append("records were added to the probe's stream after its end")
    elif any(n not in by_n for n in range(1, max(by_n, default=0) + 1)):
        problems.append("records of the probe's stream were dropped in flight, and its end")
    ordered = [by_n[n] for n in sorted(by_n) if last is None or n < last]
    return ordered, problems, last is not None


def _sealed_json(line: bytes, key: bytes | None) -> dict[str, Any] | None:
    """One ``JSON<TAB>HMAC`` line (its MAC checked unless ``key`` is None), or None."""
    body, sep, mac = line.rpartition(b"\t")
    if not sep:
        return None
    if key is not None and not hmac.compare_digest(hmac.digest(key, body, "sha256").hex().encode(), mac.strip()):
        return None
    try:
        rec = json.loads(body)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) else None


def _from_stream(side: bytes) -> dict[str, Any] | None:
    """The probe's streamed records as its report; None without an end record (it was cut).
    A stream whose seal does not hold is a report of tampering, whatever it says."""
    got = _records(side)
    if got is None:
        return None
    records, problems, ended = got
    data: dict[str, Any] = {"collected": [], "reports": [], "deselected": [], "collectErrors": [],
                            "tampered": list(problems), "failures": {}, "exitstatus": None, "reads": [],
                            "dynamic": []}
    finished = False
    for r in records:
        k = r.get("k")
        if k == "collected" and isinstance(r.get("ids"), list):
            data["collected"] = list(dict.fromkeys([*data["collected"], *map(str, r["ids"])]))
        elif k == "report":
            data["reports"].append(r)
        elif k == "deselected" and isinstance(r.get("ids"), list):
            data["deselected"] += r["ids"]
        elif k == "collecterror":
            data["collectErrors"].append(str(r.get("id")))
        elif k == "tampered":
            data["tampered"].append(str(r.get("what")))
        elif k == "failure":
            data["failures"][str(r.get("id"))] = {"message": r.get("message"), "frames": r.get("frames", [])}
        elif k == "read" and isinstance(r.get("path"), str):
            data["reads"].append(r["path"])
        elif k == "dynamic" and isinstance(r.get("where"), str) and isinstance(r.get("source"), str):
            data["dynamic"].append([r["where"], r["source"]])
        elif k == "finish":
            finished = True
            data["exitstatus"] = r.get("exitstatus")
    if data["tampered"]:  # a sealed tamper record is the truth even if the run was then cut
        return data
    return data if finished and ended else None


def read_probe(path: Path, side: bytes | None = None) -> Outcomes | None:
    """The probe's outcomes. With ``side`` (the stream) the stream is the truth: a report file
    rewritten after the fact, or a stream cut short, proves nothing."""
    if side is not None:
        data = _from_stream(side)
        if data is None:
            return None
    else:
        try:
            with open(path, "rb") as f:
                raw = f.read(64 << 20)
            data = json.loads(raw)
        except (OSError, ValueError):
            return None
    if not isinstance(data, dict) or not isinstance(data.get("reports"), list):
        return None
    by_id = _final([r for r in data["reports"] if isinstance(r, dict)])
    for nid in data.get("collected") or []:
        by_id.setdefault(str(nid), "not run")
    counts: dict[str, int] = {}
    for v in by_id.values():
        counts[v] = counts.get(v, 0) + 1
    raw_fails = data.get("failures")
    fails: dict[str, Any] = raw_fails if isinstance(raw_fails, dict) else {}
    return Outcomes(by_id, len(data.get("deselected") or []), tuple(map(str, data.get("collectErrors") or [])),
                    tuple(map(str, data.get("tampered") or [])), data.get("exitstatus"), counts,
                    {str(k): v for k, v in fails.items() if isinstance(v, dict) and by_id.get(str(k)) in ("failed",)},
                    tuple(dict.fromkeys(map(str, data.get("reads") or []))), _dynamic(data.get("dynamic")))


def _dynamic(raw: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(d[0]), str(d[1])) for d in raw if isinstance(d, list | tuple) and len(d) == 2) \
        if isinstance(raw, list) else ()


def tests_verdict(now: Outcomes, baseline: Outcomes | None) -> tuple[bool, str]:
    """Did the tests pass, compared with the baseline run? (passed, why)."""
    why = now.summary()
    if now.tampered:
        return False, f"the test run was tampered with ({'; '.join(now.tampered[:5])})"
    if now.collect_errors:
        return False, f"{why}; collection errors in {', '.join(now.collect_errors[:5])}"
    bad = sorted(n for n, o in now.by_id.items() if o in ("failed", "error", "not run"))
    if bad:
        return False, f"{why}; failing: {', '.join(bad[:8])}" + (" ..." if len(bad) > 8 else "")
    if not any(o == "passed" for o in now.by_id.values()):
        return False, f"{why}; no test passed"
    if baseline is not None:
        expected = {n for n, o in baseline.by_id.items() if o not in ("skipped", "xfailed")}
        missing = sorted(expected - set(now.by_id))
        if missing:
            return False, f"{why}; {len(missing)} baseline test(s) did not run: {', '.join(missing[:5])}"
        newly = sorted(n for n, o in now.by_id.items()
                       if o in ("skipped", "xfailed") and baseline.by_id.get(n) not in ("skipped", "xfailed"))
        if newly:
            return False, f"{why}; {len(newly)} test(s) now skipped or xfailed: {', '.join(newly[:5])}"
        if now.deselected > baseline.deselected:
            return False, f"{why}; deselected tests rose from {baseline.deselected} to {now.deselected}"
    return True, why


def coverage_total(python: str, ws: Path, env: Mapping[str, str], boot: Path, out_dir: Path,
                   runner: Runner = run_argv) -> float | None:
    """Percent covered, read by goalkeeper from the private data file with ``coverage json``."""
    return coverage_report(python, ws, env, boot, out_dir, runner)[0]


def coverage_report(python: str, ws: Path, env: Mapping[str, str], boot: Path, out_dir: Path,
                    runner: Runner = run_argv) -> tuple[float | None, frozenset[str]]:
    """Percent covered and the files measured (workspace-relative), from ``coverage json``.

    ``boot`` is a bootstrap installed for this step alone (:func:`install_helpers`), ``out_dir``
    a fresh folder for the report. Data files that are not plain files (a link planted in the
    check's scratch) are not read.
    """
    data = Path(env.get("COVERAGE_FILE", ""))
    parallel = [p for p in data.parent.glob(data.name + ".*") if _plain_file(p)]
    if not _plain_file(data) and not parallel:
        return None, frozenset()
    common = {"cwd": ws, "env": env, "inherit_env": False, "timeout": 300, "resolve": False, "strict": True}
    if parallel:  # pytest-cov or `parallel = true` leave one file per process
        runner([python, str(boot), "coverage", "combine", "-q", "--keep"], **common)
    out = out_dir / "coverage.json"
    res = runner([python, str(boot), "coverage", "json", "-q", "-o", str(out)], **common)
    if res.exit_code != 0:
        return None, frozenset()
    try:
        report = json.loads(out.read_text(encoding="utf-8"))
        total = float(report["totals"]["percent_covered"])
    except (OSError, ValueError, KeyError, TypeError):
        return None, frozenset()
    files = report.get("files") if isinstance(report, dict) else None
    measured: set[str] = set()
    for name in files if isinstance(files, dict) else ():
        path = Path(name) if Path(name).is_absolute() else ws / name
        try:
            measured.add(path.resolve().relative_to(ws.resolve()).as_posix())
        except (ValueError, OSError):
            continue  # measured outside the workspace (an installed package)
    return total, frozenset(measured)


def unmeasured(new_sources: Sequence[str], measured: frozenset[str], ws: Path | None = None) -> list[str]:
    """New source files coverage did not measure although it measures files in a folder above them,
    in a folder that is no package (with ``ws``: no ``__init__.py`` there on disk).

    Moving code into a folder coverage never searches (one without ``__init__.py`` that the package
    does not import) drops it from the report, and with it the lines no test runs. A new package
    coverage leaves out is the project's own choice (its ``omit``), not a hiding place.
    """
    folders = {m.rsplit("/", k)[0] for m in measured for k in range(1, m.count("/") + 1)}
    return [f for f in new_sources if f not in measured and "/" in f
            and any(f.rsplit("/", k)[0] in folders for k in range(1, f.count("/") + 1))
            and (ws is None or not (ws / f.rsplit("/", 1)[0] / "__init__.py").is_file())]


def _plain_file(p: Path) -> bool:
    return p.is_file() and not p.is_symlink()


def ruff_findings(stdout: str) -> list[str] | None:
    """``code path:line`` of each finding in ruff's JSON output, or None if it is not that JSON."""
    text = stdout.strip()
    start = text.find("[")
    if start < 0:
        return None
    try:
        data = json.loads(text[start:])
    except ValueError:
        return None
    if not isinstance(data, list):
        return None
    out = []
    for d in data:
        if isinstance(d, dict):
            loc = d.get("location") or {}
            path = str(d.get("filename", "?"))
            out.append(f"{d.get('code')} {path}:{loc.get('row', '?') if isinstance(loc, dict) else '?'}")
    return out


def collect(cmd: SealedCommand, res: ProcResult) -> dict[str, Any]:
    """The structured part of a check's result (probe outcomes, ruff findings), for the verdict."""
    out: dict[str, Any] = {"sealed": cmd.sealed, "tool": cmd.tool}
    if cmd.probe is not None:
        got = read_probe(cmd.probe, res.side)
        out["outcomes"] = got.dump() if got else None
    if cmd.ruff_json:
        out["ruff"] = ruff_findings(res.stdout)
    return out


def private_dir(root: Path, label: str) -> Path:
    d = root / label
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(d, 0o700)
    return d
