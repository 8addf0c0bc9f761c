"""Side by side on the unseen2 domains: goalkeeper, Fast Downward, pyperplan.

Per task, each in its own process (so a hang is killed and peak memory is the
process's own, read with ``wait4``): goalkeeper's ``astar`` and ``greedy`` on the task
``load_pddl`` grounds (CPU seconds of the search, as ``bench_planners.py`` times it),
Fast Downward's ``astar(lmcut())`` and lazy greedy search with FF and preferred
operators (its reported search time), and pyperplan's A* + LM-cut. Every plan
goalkeeper returns is checked by unified-planning's plan validator on the PDDL text
(an implementation independent of both groundings), and FD's plans too. Rows go to
a JSON file after every task; ``report.py`` writes the table.

    python benchmarks/unseen2/gen.py
    python benchmarks/unseen2/run.py --json /tmp/u2.json
    python benchmarks/unseen2/run.py --domains spanner --json /tmp/sp.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "src"))
sys.path.insert(0, str(HERE))

PDDL = HERE / "pddl"
FD_SEARCH = {
    "astar": ["--search", "astar(lmcut())"],
    "greedy": ["--evaluator", "hff=ff()", "--search", "lazy_greedy([hff], preferred=[hff])"],
}


BASE_CORE = "GOALKEEPER_BASE_CORE"  # a compiled core built from an older _core.c


def _variant(mode: str) -> str:
    """Before/after variants of our searches, for one-run comparisons: ``MODE-py`` runs
    the pure-Python core, ``MODE-base`` the compiled core at ``$GOALKEEPER_BASE_CORE``
    (a ``_core*.so`` built from an earlier commit) in place of the built one."""
    if mode.endswith("-py"):
        os.environ["GOALKEEPER_PLANNER_CORE"] = "python"
        return mode.removesuffix("-py")
    if mode.endswith("-base"):
        import importlib.util

        spec = importlib.util.spec_from_file_location("goalkeeper.planning._core",
                                                      os.environ[BASE_CORE])
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules["goalkeeper.planning._core"] = mod
        return mode.removesuffix("-base")
    return mode


WARM = "GOALKEEPER_BENCH_WARM"  # "1": import every search module before timing


def _warm() -> None:
    """Import what a search call would import on first use (modules, the compiled core),
    so the timed call pays what a long-lived process pays on every call after its
    first: FD's reported search time has no start-up in it either. Nothing is run, so
    no per-task cache is filled."""
    import importlib

    for mod in ("search.astar", "search.race", "search.tiebreak", "search.lmcut_astar",
                "search.stubborn", "search.greedy", "search.core", "heuristics.lmcut",
                "heuristics.additive", "heuristics.blind", "heuristics.hmax"):
        importlib.import_module(f"goalkeeper.planning.{mod}")
    from goalkeeper.planning.search.core import available

    available()


def child(mode: str, domain: str, problem: str, timeout: float, heuristic: str | None) -> None:
    """Ground and search in this process; print one JSON line."""
    mode = _variant(mode)
    if os.environ.get(WARM) == "1":
        _warm()
    from goalkeeper.planning.pddl import load_pddl
    from goalkeeper.planning.result import SearchLimits
    from goalkeeper.planning.search import get_search

    t0 = time.process_time()
    try:
        if mode.startswith("sas-"):  # ground with FD's translator instead (sas_task.py)
            from sas_task import load_sas

            mode = mode.removeprefix("sas-")
            task, init = load_sas(Path(domain), Path(problem))
        else:
            task, init = load_pddl(domain, problem)
    except Exception as exc:  # the finding is which error a user gets, so report it
        mod = type(exc).__module__
        print(json.dumps({"error": f"{mod}.{type(exc).__name__}: {exc}".strip()[:300]}))
        return
    ground = time.process_time() - t0
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    fn = get_search(mode)
    kw: dict[str, Any] = {} if heuristic is None else {"heuristic": heuristic}
    lim = SearchLimits(max_seconds=timeout, max_memory_mb=None)
    t0 = time.process_time()
    out = fn(task, init, limits=lim, **kw)
    dt = time.process_time() - t0
    res: dict[str, Any] = {
        "facts": len(task.var_names), "ops": len(task.operators), "ground_s": ground,
        "seconds": dt, "expanded": out.expanded, "generated": out.generated,
        "how": out.heuristic, "rss_before_mb": rss0 / 1024,
    }
    if out.plan is None:
        res["note"] = "no plan" if out.exhausted else "limit"
    else:
        task.replay(init, out.plan)
        res["cost"] = out.cost
        res["plan"] = [task.operators[i].name for i in out.plan]
    print(json.dumps(res))


def _wait(cmd: list[str], timeout: float, cwd: str | None = None) -> tuple[str, float, float, str]:
    """Run ``cmd`` in its own process group: (stdout, wall s, peak RSS MB, status)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {err[-300:]}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        status = f"> {timeout:g} s wall"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    wall = time.perf_counter() - t0
    # every child of ours has ended: RUSAGE_CHILDREN's peak is the largest one so far,
    # so each run starts a fresh interpreter below (see main) only when it grew
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return out, wall, peak, status


def run_ours(mode: str, dom: Path, prob: Path, timeout: float,
             heuristic: str | None = None) -> dict[str, Any]:
    # a fresh parent per run, so RUSAGE_CHILDREN's peak is this run's alone
    cmd = [sys.executable, str(Path(__file__)), "--measure", "--child", mode, str(dom), str(prob),
           str(timeout)] + ([heuristic] if heuristic else [])
    out, wall, _, status = _wait(cmd, timeout + 120)
    lines = out.strip().splitlines()
    if status != "ok" or not lines:
        return {"note": "crash/hang: " + status, "wall": wall}
    res: dict[str, Any] = json.loads(lines[-1])
    res["wall"] = wall
    return res


def run_fd(mode: str, dom: Path, prob: Path, timeout: float) -> dict[str, Any]:
    from fd_run import fd_script  # type: ignore[import-not-found]

    script = fd_script()
    if script is None:
        return {"note": "Fast Downward not installed"}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, str(script), str(dom), str(prob), *FD_SEARCH[mode]]
        out, wall, _, status = _wait(cmd, timeout, cwd=tmp)
        plan_file = Path(tmp) / "sas_plan"
        plan = [ln.strip() for ln in plan_file.read_text().splitlines()
                if ln.strip() and not ln.startswith(";")] if plan_file.exists() else None
    m_cost = re.search(r"Plan cost: ([\d.]+)", out)
    m_search = re.search(r"Search time: ([\d.]+)s", out)
    m_exp = re.findall(r"Expanded (\d+) state", out)
    m_mem = re.findall(r"Peak memory: (\d+) KB", out)
    res: dict[str, Any] = {"wall": wall, "rss_mb": int(m_mem[-1]) / 1024 if m_mem else None}
    if not m_cost or not m_search or plan is None:
        res["note"] = status if status != "ok" else "no plan"
        return res
    res.update(seconds=float(m_search.group(1)), cost=float(m_cost.group(1)),
               expanded=int(m_exp[-1]) if m_exp else None, plan=plan)
    return res


def run_pyperplan(dom: Path, prob: Path, timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, str(BENCH / "pyperplan_run.py"), str(dom), str(prob)]
    out, wall, _, status = _wait(cmd, timeout)
    if status != "ok":
        return {"note": status.split(":")[0]}
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def validate(dom: Path, prob: Path, plan: list[str]) -> dict[str, Any]:
    """unified-planning's validator on the PDDL text: valid?, and the plan's metric.

    Where its PDDL reader cannot read the domain (``either`` types), the plan is
    replayed on Fast Downward's translation instead (``sas_task``), a grounding
    independent of pyperplan's."""
    cmd = [sys.executable, "-W", "ignore", str(HERE / "validate.py"), str(dom), str(prob)]
    proc = subprocess.run(cmd, input="\n".join(plan), capture_output=True, text=True,
                          timeout=600)
    if proc.returncode == 0:
        out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        return out
    why = proc.stderr.strip().splitlines()[-1:]
    from sas_task import Unsupported, load_sas

    try:
        task, init = load_sas(dom, prob)
    except Unsupported as exc:
        return {"valid": None, "why": [*why, str(exc)]}
    by_name = {op.name: op for op in task.operators}
    state = init
    for step, name in enumerate(plan):
        op = by_name.get(name)
        if op is None or state & op.forbid:
            return {"valid": False, "why": f"step {step} {name}: not applicable in FD's task",
                    "by": "fd-translate replay"}
        state = task.apply(state, op)
    return {"valid": task.is_goal(state), "why": None if task.is_goal(state) else "goal",
            "by": "fd-translate replay"}


def tasks(domains: list[str] | None) -> list[tuple[str, Path, Path]]:
    out = []
    for d in sorted(domains or [p.name for p in PDDL.iterdir() if p.is_dir()]):
        out += [(f"{d}/{p.stem}", PDDL / d / "domain.pddl", p)
                for p in sorted((PDDL / d).glob("task*.pddl"))]
    return out


def main() -> None:
    if "--measure" in sys.argv:  # one run in a grandchild; print its JSON and peak RSS
        rest = sys.argv[sys.argv.index("--child") + 1:]
        cmd = [sys.executable, str(Path(__file__)), "--child", *rest]
        out, _, peak, status = _wait(cmd, float(rest[3]) + 110)
        lines = out.strip().splitlines()
        if status != "ok" or not lines:
            print(json.dumps({"note": "crash/hang: " + status}))
            return
        res = json.loads(lines[-1])
        res["rss_mb"] = peak
        print(json.dumps(res))
        return
    if "--child" in sys.argv:
        a = sys.argv[sys.argv.index("--child") + 1:]
        child(a[0], a[1], a[2], float(a[3]), a[4] if len(a) > 4 else None)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--domains", nargs="*")
    ap.add_argument("--json", required=True)
    ap.add_argument("--timeout", type=float, default=60.0, help="A* timeout, ours and FD")
    ap.add_argument("--greedy-timeout", type=float, default=20.0)
    ap.add_argument("--pyperplan-timeout", type=float, default=30.0)
    ap.add_argument("--only", nargs="*", default=None,
                    help="run only these planners: astar greedy fd fd_greedy pyperplan sas "
                         "greedy_py (Python core) astar_base (the core at $GOALKEEPER_BASE_CORE)")
    ap.add_argument("--tasks", nargs="*", help="only these task names (task01 task08 ...)")
    ap.add_argument("--give-up-after", type=int, default=2,
                    help="skip a planner on a domain after this many consecutive failures")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    fails: dict[tuple[str, str], int] = {}
    for name, dom, prob in tasks(args.domains):
        if args.tasks and prob.stem not in args.tasks:
            continue
        d = name.split("/")[0]
        row: dict[str, Any] = {"task": name}
        plan_for: list[tuple[str, Any, tuple[Any, ...]]] = [
            ("astar", run_ours, ("astar", dom, prob, args.timeout)),
            ("greedy", run_ours, ("greedy", dom, prob, args.greedy_timeout)),
            ("fd", run_fd, ("astar", dom, prob, args.timeout)),
            ("fd_greedy", run_fd, ("greedy", dom, prob, args.greedy_timeout)),
            ("pyperplan", run_pyperplan, (dom, prob, args.pyperplan_timeout)),
            ("sas", run_ours, ("sas-astar", dom, prob, args.timeout)),
            ("greedy_py", run_ours, ("greedy-py", dom, prob, args.greedy_timeout)),
            ("astar_base", run_ours, ("astar-base", dom, prob, args.timeout))]
        plan_for = [p for p in plan_for if p[0] in (args.only or [k for k, _, _ in plan_for[:5]])]
        for key, fn, fargs in plan_for:
            if args.give_up_after and fails.get((key, d), 0) >= args.give_up_after:
                row[key] = {"note": "skipped"}
                continue
            res = fn(*fargs)
            if res.get("error"):  # the loader refused: the same for both of our searches
                row[key] = res
                fails[(key, d)] = args.give_up_after
                continue
            fails[(key, d)] = 0 if "seconds" in res and "cost" in res else fails.get((key, d), 0) + 1
            if "plan" in res:
                res["validation"] = validate(dom, prob, res["plan"])
                res["plan_len"] = len(res["plan"])
            row[key] = res
        rows.append(row)
        Path(args.json).write_text(json.dumps(rows, indent=1))
        short = {k: (v.get("seconds"), v.get("cost"), v.get("note") or v.get("error"))
                 for k, v in row.items() if isinstance(v, dict)}
        print(name, short, flush=True)


if __name__ == "__main__":
    main()
