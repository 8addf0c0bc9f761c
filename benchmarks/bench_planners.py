"""Side-by-side planner benchmark: goalkeeper vs Fast Downward and pyperplan.

For every IPC task: ground it once (not timed as search), run our optimal A* (automatic
heuristic, compiled core unless ``--core python``) in process, Fast Downward's A* +
LM-cut (from the up-fast-downward wheel) and pyperplan's A* + LM-cut in subprocesses
with timeouts. Then time every search on GOAP-sized specs. Writes a Markdown report
with per-domain median ratios, and a JSON file of the raw rows (``--json``); several
JSON files (e.g. from runs split by domain) merge into one report with ``--merge``.

    python benchmarks/bench_planners.py                      # every domain (long)
    python benchmarks/bench_planners.py --domains tpp sokoban --no-pyperplan
    python benchmarks/bench_planners.py --tasks gripper/task01 blocks/task04
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from bench_report import Row, Run, write_report  # noqa: E402
from fd_run import fd_script, run_fd  # noqa: E402
from goap import goap_spec  # noqa: E402

from goalkeeper.planning.pddl import load_pddl  # noqa: E402
from goalkeeper.planning.result import SearchLimits  # noqa: E402
from goalkeeper.planning.search import get_search  # noqa: E402

PDDL = Path(os.environ.get("GOALKEEPER_PDDL", "/work/shared/benchmarks/pddl"))


def domain_file(dom: str, prob: str) -> Path:
    """``domainNN.pddl`` beside ``taskNN.pddl`` where a domain has one per task."""
    own = PDDL / dom / f"domain{prob.removeprefix('task')}.pddl"
    return own if own.exists() else PDDL / dom / "domain.pddl"


def run_ours(task: object, init: int, mode: str, timeout: float, core: str | None) -> Run:
    """CPU seconds of one in-process search (Fast Downward reports CPU time too)."""
    fn = get_search(mode)
    kw = {"core": core} if mode == "astar" else {}
    t0 = time.process_time()
    try:
        # no memory budget, as for Fast Downward: a search that fills memory is a failure
        lim = SearchLimits(max_seconds=timeout, max_memory_mb=None)
        out = fn(task, init, limits=lim, **kw)  # type: ignore[arg-type, call-arg]
    except MemoryError:
        return Run(None, None, None, "out of memory")
    dt = time.process_time() - t0
    if out.plan is None:
        return Run(None, None, out.expanded, "limit" if not out.exhausted else "no plan")
    task.replay(init, out.plan)  # type: ignore[attr-defined]
    return Run(dt, out.cost, out.expanded, out.heuristic)


def run_pyperplan(domain: Path, problem: Path, timeout: float) -> Run:
    cmd = [sys.executable, str(HERE / "pyperplan_run.py"), str(domain), str(problem)]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run(None, None, None, f"> {timeout:g} s")
    if res.returncode != 0:
        return Run(None, None, None, "error")
    data = json.loads(res.stdout.strip().splitlines()[-1])
    return Run(data["seconds"], data["cost"], data["expanded"])


def task_list(args: argparse.Namespace) -> list[str]:
    if args.tasks:
        return list(args.tasks)
    domains = args.domains or sorted(p.name for p in PDDL.iterdir() if p.is_dir())
    out = []
    for d in domains:
        out += [f"{d}/{p.stem}" for p in sorted((PDDL / d).glob("task*.pddl"))]
    return out


def goap_bench(n: int, core: str | None) -> list[tuple[str, float, float, float]]:
    specs = [goap_spec(seed) for seed in range(n)]
    rows = []
    for mode in ("astar", "regression", "greedy"):
        fn = get_search(mode)
        kw = {"core": core} if mode == "astar" else {}
        fn(*specs[0], **kw)  # type: ignore[call-arg]  # warm up imports and caches
        times = []
        lengths = []
        for task, init in specs:
            t0 = time.perf_counter()
            out = fn(task, init, **kw)  # type: ignore[call-arg]
            times.append(time.perf_counter() - t0)
            assert out.plan is not None
            lengths.append(len(out.plan))
        times.sort()
        rows.append((mode, times[len(times) // 2] * 1e3, times[int(0.9 * len(times))] * 1e3,
                     sum(lengths) / len(lengths)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", nargs="*", help="domain/taskNN names (default: all)")
    ap.add_argument("--domains", nargs="*", help="domain folders (default: all in $GOALKEEPER_PDDL)")
    ap.add_argument("--timeout", type=float, default=60.0, help="pyperplan timeout (s)")
    ap.add_argument("--fd-timeout", type=float, default=60.0)
    ap.add_argument("--our-timeout", type=float, default=60.0)
    ap.add_argument("--core", choices=["auto", "c", "python"], default=None,
                    help="planner core for our A* (default: GOALKEEPER_PLANNER_CORE or auto)")
    ap.add_argument("--greedy", action="store_true", help="also run our greedy search")
    ap.add_argument("--greedy-timeout", type=float, default=10.0)
    ap.add_argument("--no-pyperplan", action="store_true")
    ap.add_argument("--no-fd", action="store_true")
    ap.add_argument("--keep-going", action="store_true",
                    help="run pyperplan on a domain's later tasks after it timed out once")
    ap.add_argument("--give-up-after", type=int, default=2,
                    help="skip our A* and FD on a domain's later tasks after this many "
                         "consecutive failures of that planner (0: never skip)")
    ap.add_argument("--goap", type=int, default=500, help="number of GOAP specs (0: skip)")
    ap.add_argument("--out", default=str(HERE / "RESULTS.md"))
    ap.add_argument("--json", default=None, help="also write the raw rows to this JSON file")
    ap.add_argument("--merge", nargs="*", default=None,
                    help="write the report from these JSON files instead of running")
    args = ap.parse_args()
    if args.merge is not None:
        rows: list[Row] = []
        goap: list[tuple[str, float, float, float]] = []
        meta: dict[str, object] = {}
        for f in args.merge:
            data = json.loads(Path(f).read_text())
            rows += [Row.from_dict(r) for r in data["rows"]]
            if data["goap"] and not goap:
                goap = [tuple(g) for g in data["goap"]]  # type: ignore[misc]
                args.goap = data.get("goap_n", args.goap)
            meta.setdefault("commands", []).append(data["command"])  # type: ignore[attr-defined]
        write_report(Path(args.out), rows, goap, args, meta)
        return

    fd = None if args.no_fd else fd_script()
    rows = []
    pyper_dead: set[str] = set()
    fails: dict[tuple[str, str], int] = {}  # (planner, domain) -> consecutive failures
    warm_task, warm_init = goap_spec(0)
    for mode in ("astar", "greedy"):  # imports and registries, as pyperplan's are not timed
        get_search(mode)(warm_task, warm_init)

    def dead(planner: str, dom: str) -> bool:
        return args.give_up_after > 0 and fails.get((planner, dom), 0) >= args.give_up_after

    def record(planner: str, dom: str, run: Run) -> Run:
        fails[(planner, dom)] = 0 if run.seconds is not None else fails.get((planner, dom), 0) + 1
        return run

    def dump(goap: list[tuple[str, float, float, float]]) -> None:
        meta = {"commands": [" ".join(["python", "benchmarks/bench_planners.py", *sys.argv[1:]])]}
        write_report(Path(args.out), rows, goap, args, meta)
        if args.json:
            Path(args.json).write_text(json.dumps({
                "command": meta["commands"][0], "rows": [asdict(r) for r in rows],
                "goap": goap, "goap_n": args.goap}, indent=1))

    for name in task_list(args):
        dom, prob = name.split("/")
        dpath, ppath = domain_file(dom, prob), PDDL / dom / f"{prob}.pddl"
        if dead("astar", dom) and (fd is None or dead("fd", dom)) and (
                args.no_pyperplan or (dom in pyper_dead and not args.keep_going)):
            # everyone gave up on this domain: do not spend minutes grounding it
            skip = Run(None, None, None, "skipped")
            rows.append(Row(name, runs={"astar": skip, "fd": skip, "pyperplan": skip}))
            dump([])
            continue
        t0 = time.perf_counter()
        task, init = load_pddl(dpath, ppath)
        row = Row(name, len(task.var_names), len(task.operators), time.perf_counter() - t0)
        if dead("astar", dom):
            row.runs["astar"] = Run(None, None, None, "skipped")
        else:
            row.runs["astar"] = record("astar", dom, run_ours(
                task, init, "astar", args.our_timeout, args.core))
        if args.greedy:
            row.runs["greedy"] = run_ours(task, init, "greedy", args.greedy_timeout, None)
        if fd is not None:
            if dead("fd", dom):
                row.runs["fd"] = Run(None, None, None, "skipped")
            else:
                row.runs["fd"] = record("fd", dom, run_fd(fd, dpath, ppath, args.fd_timeout))
        if not args.no_pyperplan:
            if dom in pyper_dead and not args.keep_going:
                row.runs["pyperplan"] = Run(None, None, None, "skipped")
            else:
                row.runs["pyperplan"] = run_pyperplan(dpath, ppath, args.timeout)
                if row.runs["pyperplan"].seconds is None:
                    pyper_dead.add(dom)
        rows.append(row)
        dump([])  # partial results
        r = row.runs
        print(f"{name:22s} " + "  ".join(f"{k} {v.short()}" for k, v in r.items()), flush=True)
    dump(goap_bench(args.goap, args.core) if args.goap else [])
    print(f"wrote {args.out}  ({platform.python_version()})")


if __name__ == "__main__":
    main()
