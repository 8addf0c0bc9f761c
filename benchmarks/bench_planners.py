"""Side-by-side planner benchmark: goalkeeper vs pyperplan and Fast Downward.

For every IPC task: ground it once (not timed as search), run our optimal A* (automatic
heuristic) and greedy search in process, pyperplan's A* + LM-cut in a subprocess with a
timeout, and Fast Downward's A* + LM-cut (if the up-fast-downward wheel is installed).
Then time every search on GOAP-sized specs. Writes a Markdown report.

    python benchmarks/bench_planners.py                      # everything (slow)
    python benchmarks/bench_planners.py --tasks gripper/task01 blocks/task04
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from goap import goap_spec  # noqa: E402

from goalkeeper.planning.pddl import load_pddl  # noqa: E402
from goalkeeper.planning.result import SearchLimits  # noqa: E402
from goalkeeper.planning.search import get_search  # noqa: E402

PDDL = Path(os.environ.get("GOALKEEPER_PDDL", "/work/shared/benchmarks/pddl"))
DOMAINS = ("gripper", "blocks", "logistics", "miconic")
HARD = ("gripper/task05", "logistics/task11", "blocks/task16")


@dataclass
class Run:
    seconds: float | None = None  # None: timed out / failed
    cost: float | None = None
    expanded: int | None = None
    note: str = ""


@dataclass
class Row:
    name: str
    facts: int = 0
    ops: int = 0
    ground_s: float = 0.0
    runs: dict[str, Run] = field(default_factory=dict)


def run_ours(task: object, init: int, mode: str, timeout: float) -> Run:
    fn = get_search(mode)
    t0 = time.perf_counter()
    out = fn(task, init, limits=SearchLimits(max_seconds=timeout))  # type: ignore[arg-type]
    dt = time.perf_counter() - t0
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


def fd_script() -> Path | None:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "downward" / "fast-downward.py"
    return path if path.exists() else None


def run_fd(script: Path, domain: Path, problem: Path, timeout: float) -> Run:
    cmd = [sys.executable, str(script), str(domain), str(problem), "--search", "astar(lmcut())"]
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=tmp)
        except subprocess.TimeoutExpired:
            return Run(None, None, None, f"> {timeout:g} s")
        wall = time.perf_counter() - t0
    out = res.stdout
    m_cost = re.search(r"Plan cost: ([\d.]+)", out)
    m_search = re.search(r"Search time: ([\d.]+)s", out)
    m_exp = re.findall(r"Expanded (\d+) state", out)
    if not m_cost or not m_search:
        return Run(None, None, None, "no plan")
    return Run(float(m_search.group(1)), float(m_cost.group(1)),
               int(m_exp[-1]) if m_exp else None, f"wall {wall:.2f} s")


def fmt_s(r: Run | None) -> str:
    if r is None:
        return "-"
    if r.seconds is None:
        return r.note or "-"
    return f"{r.seconds:.3f}" if r.seconds < 10 else f"{r.seconds:.1f}"


def fmt_cost(r: Run | None) -> str:
    return "-" if r is None or r.cost is None else f"{r.cost:g}"


def fmt_exp(r: Run | None) -> str:
    return "-" if r is None or r.expanded is None else str(r.expanded)


def task_list(args: argparse.Namespace) -> list[str]:
    if args.tasks:
        return list(args.tasks)
    out = []
    for d in args.domains:
        out += [f"{d}/{p.stem}" for p in sorted((PDDL / d).glob("task*.pddl"))]
    return out


def goap_bench(n: int) -> list[tuple[str, float, float, float]]:
    specs = [goap_spec(seed) for seed in range(n)]
    rows = []
    for mode in ("astar", "regression", "greedy"):
        fn = get_search(mode)
        fn(*specs[0])  # warm up imports and caches
        times = []
        lengths = []
        for task, init in specs:
            t0 = time.perf_counter()
            out = fn(task, init)
            times.append(time.perf_counter() - t0)
            assert out.plan is not None
            lengths.append(len(out.plan))
        times.sort()
        rows.append((mode, statistics.median(times) * 1e3, times[int(0.9 * len(times))] * 1e3,
                     statistics.mean(lengths)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", nargs="*", help="domain/taskNN names (default: all)")
    ap.add_argument("--domains", nargs="*", default=list(DOMAINS))
    ap.add_argument("--timeout", type=float, default=60.0, help="pyperplan/FD timeout (s)")
    ap.add_argument("--fd-timeout", type=float, default=60.0)
    ap.add_argument("--our-timeout", type=float, default=60.0)
    ap.add_argument("--greedy-timeout", type=float, default=10.0)
    ap.add_argument("--no-pyperplan", action="store_true")
    ap.add_argument("--no-fd", action="store_true")
    ap.add_argument("--keep-going", action="store_true",
                    help="run pyperplan on a domain's later tasks after it timed out once")
    ap.add_argument("--give-up-after", type=int, default=2,
                    help="skip our A* and FD on a domain's later tasks after this many "
                         "consecutive timeouts of that planner (0: never skip)")
    ap.add_argument("--goap", type=int, default=500, help="number of GOAP specs (0: skip)")
    ap.add_argument("--out", default=str(HERE / "RESULTS.md"))
    args = ap.parse_args()

    fd = None if args.no_fd else fd_script()
    rows: list[Row] = []
    pyper_dead: set[str] = set()
    fails: dict[tuple[str, str], int] = {}  # (planner, domain) -> consecutive timeouts
    warm_task, warm_init = goap_spec(0)
    for mode in ("astar", "greedy"):  # imports and registries, as pyperplan's are not timed
        get_search(mode)(warm_task, warm_init)

    def dead(planner: str, dom: str) -> bool:
        return args.give_up_after > 0 and fails.get((planner, dom), 0) >= args.give_up_after

    def record(planner: str, dom: str, run: Run) -> Run:
        fails[(planner, dom)] = 0 if run.seconds is not None else fails.get((planner, dom), 0) + 1
        return run
    for name in task_list(args):
        dom, prob = name.split("/")
        dpath, ppath = PDDL / dom / "domain.pddl", PDDL / dom / f"{prob}.pddl"
        t0 = time.perf_counter()
        task, init = load_pddl(dpath, ppath)
        row = Row(name, len(task.var_names), len(task.operators), time.perf_counter() - t0)
        if dead("astar", dom):
            row.runs["astar"] = Run(None, None, None, "skipped")
        else:
            row.runs["astar"] = record("astar", dom, run_ours(task, init, "astar",
                                                              args.our_timeout))
        row.runs["greedy"] = run_ours(task, init, "greedy", args.greedy_timeout)
        if not args.no_pyperplan:
            if dom in pyper_dead and not args.keep_going:
                row.runs["pyperplan"] = Run(None, None, None, "skipped")
            else:
                row.runs["pyperplan"] = run_pyperplan(dpath, ppath, args.timeout)
                if row.runs["pyperplan"].seconds is None:
                    pyper_dead.add(dom)
        if fd is not None:
            if dead("fd", dom):
                row.runs["fd"] = Run(None, None, None, "skipped")
            else:
                row.runs["fd"] = record("fd", dom, run_fd(fd, dpath, ppath, args.fd_timeout))
        rows.append(row)
        write_report(Path(args.out), rows, [], fd is not None, args)  # partial results
        r = row.runs
        print(f"{name:18s} astar {fmt_s(r['astar'])} ({fmt_cost(r['astar'])}, {r['astar'].note})"
              f"  greedy {fmt_s(r['greedy'])} ({fmt_cost(r['greedy'])})"
              f"  pyperplan {fmt_s(r.get('pyperplan'))}  fd {fmt_s(r.get('fd'))}", flush=True)
    goap = goap_bench(args.goap) if args.goap else []
    write_report(Path(args.out), rows, goap, fd is not None, args)


def write_report(path: Path, rows: list[Row], goap: list[tuple[str, float, float, float]],
                 have_fd: bool, args: argparse.Namespace) -> None:
    lines = ["# Planner benchmark results", ""]
    cmd = " ".join(["python", "benchmarks/bench_planners.py", *sys.argv[1:]])
    lines += [f"Produced by `{cmd}` on {platform.python_implementation()} "
              f"{platform.python_version()}, {os.cpu_count()} cores, "
              f"{time.strftime('%Y-%m-%d %H:%M')}.", ""]
    lines += ["Times are search seconds (grounding excluded; our times include per-task "
              "preprocessing and heuristic compilation). pyperplan is A* + LM-cut "
              f"(timeout {args.timeout:g} s); FD is Fast Downward A* + LM-cut (its own "
              "search time). Ratio = pyperplan time / our A* time. "
              f"Our A* timeout {args.our_timeout:g} s, greedy {args.greedy_timeout:g} s, "
              f"FD {args.fd_timeout:g} s. \"skipped\": pyperplan is not run on a "
              "domain's tasks after its first timeout in that domain"
              + ("" if args.give_up_after <= 0 else
                 f"; our A* and FD not after {args.give_up_after} consecutive timeouts "
                 "(tasks are numbered by increasing size)")
              + ". Greedy runs on every task.", ""]
    ratios: list[float] = []
    mismatches: list[str] = []
    head = "| task | facts | ops | ours A* s | cost | expanded | heuristic | greedy s | greedy cost | pyperplan s | pp cost | pp expanded | ratio |"
    sep = "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    if have_fd:
        head += " FD s | FD cost | FD expanded |"
        sep += "---|---|---|"
    lines += [head, sep]
    for row in rows:
        a, g = row.runs["astar"], row.runs["greedy"]
        p, f = row.runs.get("pyperplan"), row.runs.get("fd")
        ratio = ""
        if p and p.seconds is not None and a.seconds:
            ratios.append(p.seconds / a.seconds)
            ratio = f"{p.seconds / a.seconds:.1f}x"
        for ref in (p, f):
            if ref and ref.cost is not None and a.cost is not None and ref.cost != a.cost:
                mismatches.append(row.name)
        line = (f"| {row.name} | {row.facts} | {row.ops} | {fmt_s(a)} | {fmt_cost(a)} | "
                f"{fmt_exp(a)} | {a.note} | {fmt_s(g)} | {fmt_cost(g)} | {fmt_s(p)} | "
                f"{fmt_cost(p)} | {fmt_exp(p)} | {ratio} |")
        if have_fd:
            line += f" {fmt_s(f)} | {fmt_cost(f)} | {fmt_exp(f)} |"
        lines.append(line)
    lines.append("")
    if ratios:
        lines.append(f"**Median speed-up vs pyperplan A* + LM-cut: {statistics.median(ratios):.1f}x** "
                     f"over {len(ratios)} tasks it solved (min {min(ratios):.1f}x, "
                     f"max {max(ratios):.1f}x).")
    lines.append(f"Optimal cost mismatches vs references: {', '.join(mismatches) or 'none'}.")
    greedy_fail = [r.name for r in rows if r.runs["greedy"].seconds is None
                   or r.runs["greedy"].seconds > 10]
    gtimes = [r.runs["greedy"].seconds or 0.0 for r in rows]
    lines.append(f"Greedy searches over 10 s or failed: {', '.join(greedy_fail) or 'none'} "
                 f"(of {len(rows)} tasks; slowest {max(gtimes, default=0.0):.2f} s).")
    solved = [r for r in rows if r.runs["astar"].seconds is not None]
    lines.append(f"Our A* solved {len(solved)} of {len(rows)} tasks optimally"
                 f" (each within {args.our_timeout:g} s).")
    hard = {r.name: r.runs["astar"] for r in rows if r.name in HARD}
    if hard:
        lines.append("Hard optimal tasks: " + ", ".join(
            f"{k} {fmt_s(v)} s (cost {fmt_cost(v)})" for k, v in hard.items()) + ".")
    if goap:
        lines += ["", f"## GOAP-sized specs ({args.goap} random solvable specs, 10-30 facts "
                  "and actions, benchmarks/goap.py)", "",
                  "| search | median ms | p90 ms | mean plan length |", "|---|---|---|---|"]
        lines += [f"| {m} | {med:.3f} | {p90:.3f} | {ln:.2f} |" for m, med, p90, ln in goap]
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
