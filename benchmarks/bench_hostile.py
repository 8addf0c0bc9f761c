"""Hostile planning inputs: this tree against an older commit, side by side in one run.

Each spec (``tests/planning/hostile.py``) is planned by the real CLI (``goalkeeper
plan --json``) in a subprocess of each tree, under an address-space limit, with the
compiled core built in the older tree too (``setup.py build_ext --inplace`` in a
``git archive`` copy). Reported per run: the status, CPU seconds and peak resident
memory of the child (``wait4``), or "timeout" (wall clock).

    python benchmarks/bench_hostile.py --baseline bb68f3a --timeout 300
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "planning"))

from hostile import chains  # noqa: E402

CASES = {
    "10 chains x 100": dict(n=10, k=100),
    "10 chains x 250": dict(n=10, k=250),
    "10 chains x 500": dict(n=10, k=500),
    "10 counters x 500": dict(n=10, k=500, counters=True),
    "8 coupled chains x 40 (blind)": dict(n=8, k=40, coupled=True),
    "10 coupled chains x 500": dict(n=10, k=500, coupled=True),
}
LAUNCH = ("import resource, runpy, sys; lim = int(sys.argv.pop(1)) * 2**20; "
          "resource.setrlimit(resource.RLIMIT_AS, (lim, lim)); sys.argv[0] = 'goalkeeper'; "
          "runpy.run_module('goalkeeper', run_name='__main__')")


def run(src: Path, spec: Path, cap_mb: int, timeout: float, extra: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(src)}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, str(cap_mb), "plan", str(spec),
                                 "--json", *extra], env=env, stdout=out, stderr=err)
        deadline = time.perf_counter() + timeout
        while True:  # wait4, not wait: the child's own CPU time and peak memory
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                return f"timeout ({timeout:.0f} s wall)"
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    cpu = usage.ru_utime + usage.ru_stime
    if proc.returncode == 0:
        result = f"found, cost {json.loads(stdout)['cost']}"
    elif "Traceback" in stderr:
        result = "crash: " + stderr.strip().splitlines()[-1][:70]
    else:
        result = "error: " + stderr.strip()[:70]
    return f"{result}; {cpu:.1f} s CPU, peak {usage.ru_maxrss / 1024:.0f} MB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="bb68f3a")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--cap-mb", type=int, default=4096)
    ap.add_argument("--cases", nargs="*", default=list(CASES))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        base = tmp / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=base,
                       check=True, capture_output=True)
        trees = {"this tree": REPO / "src", args.baseline: base / "src"}
        print(f"| spec | {' | '.join(trees)} |\n|---|{'---|' * len(trees)}")
        for name in args.cases:
            spec = tmp / "spec.json"
            spec.write_text(json.dumps(chains(**CASES[name])))
            extra = ["--heuristic", "blind"] if "(blind)" in name else []
            cells = [run(src, spec, args.cap_mb, args.timeout, extra) for src in trees.values()]
            print(f"| {name} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
