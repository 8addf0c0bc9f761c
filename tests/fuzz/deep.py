"""The deep fuzz tier: the same hostile inputs as tests/fuzz, for as long as you like.

    python tests/fuzz/deep.py [--minutes 10] [--memory-mb 1024] [--timeout 20] [--out DIR] [--only NAME]

Two phases share the time budget:

1. **In-process**, random (not derandomized) Hypothesis runs of every property in
   the modules of ``PROPERTY_MODULES`` (spec loader, state readers, CLI, PDDL,
   a real signed goal home, hook stdin), a few hundred examples per round (a
   module whose examples are costly caps them with ``DEEP_EXAMPLES``), round
   after round until half the budget is spent. A falsified property prints its
   minimal example and counts as a failure; one that runs past ``HANG_SECONDS``
   counts as a HANG and prints the example it was on.
2. **Subprocesses**: fresh samples written to files, and the real ``goalkeeper``
   entry point run on them (validate, plan, goal list/status, runs list/show,
   triage list/show) with an address-space limit (``--memory-mb``) and a timeout,
   counting tracebacks (or "internal error" lines), hangs (timeouts) and memory
   blow-ups (MemoryError, or death by signal under the limit).

``--only NAME`` runs only the properties whose name contains NAME, for the whole
budget, and no subprocesses. Signing keys go to the scratch folder
(GOALKEEPER_KEYS), never to ``~/.local/state``.

Every class a long run found is a fixed input in the fast suite (next to the
property, e.g. ``test_signed_home_finds.py``, ``tests/cli/test_hostile_*.py``);
finds still open in files this tier's owner does not own are strict xfails
there, and the properties leave exactly those values alone (``OPEN_FIND``), so
CI's random runs fail only on something new.

Failing inputs are kept under ``--out`` (default: a temp folder, printed at the
end). Exit status 0 when nothing failed. A property run in progress is finished
when the budget ends, so a run can take a few minutes longer than ``--minutes``
(``--examples`` sets the size of one run; 4 minutes with 200 took 7 on 2 busy
cores, and found nothing). The properties are found through Hypothesis'
``hypothesis.inner_test`` and ``_given_kwargs`` attributes of the bounded tests. CI runs it as a separate tier, e.g.
``python tests/fuzz/deep.py --minutes 30`` nightly; the bounded properties run in
the normal suite in a few seconds each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.errors import NonInteractiveExampleWarning  # noqa: E402

from tests.fuzz import strategies as S  # noqa: E402

PROPERTY_MODULES = ["test_loader_fuzz", "test_state_fuzz", "test_cli_fuzz", "test_pddl_fuzz",
                    "test_signed_home_fuzz", "test_hook_fuzz"]


def _properties() -> list[tuple[str, Callable[..., Any], dict[str, Any], int | None]]:
    """(name, inner test function, strategies, examples cap) of every property in the bounded tier.

    A module whose examples are costly (a real goal home per example) caps its examples per round
    with ``DEEP_EXAMPLES``, so one round of every property stays about a minute."""
    import importlib

    mods = []
    for name in PROPERTY_MODULES:
        try:
            mods.append(importlib.import_module(f"tests.fuzz.{name}"))
        except BaseException as e:  # pytest.importorskip: an optional dependency is missing
            print(f"skipping tests/fuzz/{name}.py: {type(e).__name__}: {e}", flush=True)
    out = []
    for mod in mods:
        for name in dir(mod):
            fn = getattr(mod, name)
            hyp = getattr(fn, "hypothesis", None)
            if name.startswith("test_") and hyp is not None:
                out.append((f"{mod.__name__.rsplit('.', 1)[1]}::{name}", hyp.inner_test,
                            dict(hyp._given_kwargs) if hasattr(hyp, "_given_kwargs") else {},
                            getattr(mod, "DEEP_EXAMPLES", None)))
    return out


class _TmpFactory:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.n = 0

    def mktemp(self, name: str) -> Path:
        self.n += 1
        p = self.base / f"{name}{self.n}"
        p.mkdir(parents=True)
        return p


def _runner(inner: Callable[..., Any], d: Path) -> Callable[..., None]:
    """Call a property with what pytest's fixtures would have given it, under ``d``."""
    params = inner.__code__.co_varnames[: inner.__code__.co_argcount]

    def run(**drawn: Any) -> None:
        _current.clear()
        _current.update(drawn)
        call = dict(drawn)
        if "tmp_path" in params:
            call["tmp_path"] = Path(tempfile.mkdtemp(dir=d))
        if "goalkeeper_home" in params:
            sub = Path(tempfile.mkdtemp(dir=d)) / "gk-home"
            os.environ["GOALKEEPER_HOME"] = str(sub)
            call["goalkeeper_home"] = sub
        if "tmp_path_factory" in params:
            call["tmp_path_factory"] = _TmpFactory(Path(tempfile.mkdtemp(dir=d)))
        inner(**call)

    return run


HANG_SECONDS = 600  # one property run of a few hundred examples takes seconds to a minute


class _Hang(BaseException):
    """Raised by the alarm; a BaseException, so Hypothesis does not replay (and hang on) the example."""


_current: dict[str, Any] = {}  # the example being run, shown when it hangs


def _hung(*_: object) -> None:
    raise _Hang(f"a property run took over {HANG_SECONDS} s: a hang")


def phase_in_process(until: float, work: Path, examples: int, only: str = "") -> Counter[str]:
    results: Counter[str] = Counter()
    props = [p for p in _properties() if only in p[0]]
    rnd = 0
    while time.monotonic() < until:
        rnd += 1
        for name, inner, kwargs, cap in props:
            n = min(examples, cap or examples)
            if time.monotonic() >= until:
                break
            if not kwargs:
                continue
            d = Path(tempfile.mkdtemp(dir=work))
            os.environ["GOALKEEPER_HOME"] = str(d / "gk-home")

            run = _runner(inner, d)
            test = settings(max_examples=n, deadline=None, database=None, derandomize=False,
                            suppress_health_check=list(HealthCheck))(given(**kwargs)(run))
            # A hang in-process (a loader that loops) fails the property instead of stalling the tier.
            signal.signal(signal.SIGALRM, _hung)
            signal.alarm(HANG_SECONDS)
            try:
                test()
                results[f"ok {name}"] += n
            except Exception:
                results[f"FAILED {name}"] += 1
                print(f"\n--- {name} (round {rnd}) ---\n{traceback.format_exc()}", flush=True)
            except _Hang as e:
                results[f"HANG {name}"] += 1
                print(f"\n--- {name} (round {rnd}): {e} on ---\n{_current!r:.20000}", flush=True)
            finally:
                signal.alarm(0)
    return results


def _sample(strategy: st.SearchStrategy[Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        return strategy.example()


def _limit(mb: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))

    return apply


def _classify(r: subprocess.CompletedProcess[str] | None) -> str:
    if r is None:
        return "hang"
    text = r.stdout + r.stderr
    if "MemoryError" in text or "Cannot allocate memory" in text or r.returncode < 0:
        return "memory"
    if "Traceback" in text or "internal error" in text:
        return "traceback"
    return "ok"


def _case(kind: str, d: Path) -> list[list[str]]:
    """Write one hostile input under ``d``; return the commands to run on it."""
    home = d / "home"
    if kind in ("spec-yaml", "spec-json", "bomb", "deep", "binary"):
        if kind == "spec-yaml":
            name, data = "spec.yaml", _sample(S.mutated(S.VALID_YAML))
        elif kind == "spec-json":
            name, data = "spec.json", _sample(S.mutated(S.VALID_JSON))
        elif kind == "bomb":
            name, data = "spec.yaml", _sample(S.bombs)
        elif kind == "deep":
            text, fmt = _sample(S.deep_texts)
            name, data = f"spec.{fmt}", text
        else:
            name, data = _sample(st.sampled_from(["spec.yaml", "spec.json"])), _sample(S.binary_blobs)
        p = d / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass"))
        return [["validate", str(p)], ["validate", "--json", str(p)], ["plan", str(p)]]
    if kind == "goal":
        text = _sample(S.state_mutations(S.goal_document()))
        (home / "goals").mkdir(parents=True)
        (home / "goals" / "goal-fuzz0001.json").write_bytes(text.encode("utf-8", errors="surrogatepass"))
        return [["goal", "list"], ["goal", "list", "--json"], ["goal", "status", "goal-fuzz0001"],
                ["goal", "show", "--json", "goal-fuzz0001"]]
    from tests.fuzz.test_state_fuzz import RUN_DOC, TRIAGE_DOC

    if kind == "run":
        text = _sample(S.state_mutations(RUN_DOC))
        rd = home / "runs" / "run-20260101T000000-fuzz"
        rd.mkdir(parents=True)
        (rd / "state.json").write_bytes(text.encode("utf-8", errors="surrogatepass"))
        (rd / "events.jsonl").write_bytes(text.encode("utf-8", errors="surrogatepass"))
        return [["runs", "list"], ["runs", "show", "--events", "--json", "run-20260101T000000-fuzz"]]
    text = _sample(S.state_mutations(TRIAGE_DOC))
    (home / "triage").mkdir(parents=True)
    (home / "triage" / "tri-fuzz0001.json").write_bytes(text.encode("utf-8", errors="surrogatepass"))
    return [["triage", "list"], ["triage", "show", "tri-fuzz0001"]]


KINDS = ["spec-yaml", "spec-json", "bomb", "deep", "binary", "goal", "run", "triage"]


def phase_subprocess(until: float, work: Path, out: Path, mb: int, timeout: float) -> Counter[str]:
    results: Counter[str] = Counter()
    n = 0
    while time.monotonic() < until:
        kind = KINDS[n % len(KINDS)]
        n += 1
        d = Path(tempfile.mkdtemp(dir=work))
        env = {**os.environ, "GOALKEEPER_HOME": str(d / "home"), "NO_COLOR": "1",
               "PYTHONPATH": str(REPO / "src")}
        env.pop("GOALKEEPER_DEBUG", None)
        for cmd in _case(kind, d):
            try:
                r: subprocess.CompletedProcess[str] | None = subprocess.run(
                    [sys.executable, "-m", "goalkeeper", *cmd], capture_output=True, text=True, errors="replace",
                    timeout=timeout, env=env, cwd=d, preexec_fn=_limit(mb))
            except subprocess.TimeoutExpired:
                r = None
            verdict = _classify(r)
            results[f"{verdict} {kind}"] += 1
            if verdict != "ok":
                keep = out / f"{verdict}-{kind}-{n}"
                subprocess.run(["cp", "-a", str(d), str(keep)], check=False)
                (keep / "command.json").write_text(json.dumps(
                    {"argv": cmd, "stderr": r.stderr[-4000:] if r else "timeout"}, indent=2))
                print(f"{verdict}: {kind} {' '.join(cmd)} -> kept in {keep}", flush=True)
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--memory-mb", type=int, default=1024)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per CLI invocation before it is a hang")
    ap.add_argument("--examples", type=int, default=300, help="examples per property per in-process round")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--only", default="", help="run only the properties whose name contains this (and no subprocesses)")
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="gk-deep-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    budget = args.minutes * 60
    with tempfile.TemporaryDirectory() as w:
        work = Path(w)
        os.environ["GOALKEEPER_KEYS"] = str(work / "keys")  # signing keys stay in the scratch folder
        if args.only:
            inproc, sub = phase_in_process(start + budget, work, args.examples, args.only), Counter[str]()
        else:
            inproc = phase_in_process(start + budget / 2, work, args.examples)
            sub = phase_subprocess(start + budget, work, out, args.memory_mb, args.timeout)
    print(f"\n{'result':<60} count")
    for key, count in sorted((inproc + sub).items()):
        print(f"{key:<60} {count}")
    failed = sum(c for k, c in (inproc + sub).items() if not k.startswith("ok"))
    print(f"\n{failed} failure(s) in {(time.monotonic() - start) / 60:.1f} min; failing inputs kept in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
