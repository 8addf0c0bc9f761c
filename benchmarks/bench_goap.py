"""GOAP-sized specs: warm planning time of this tree against older commits, in one run.

Times, per tree, a warm ``astar`` search call on the Task (what RESULTS.md's GOAP table
reports) and a warm ``goalkeeper.plan()`` call on the same spec as a Spec (what a
runtime pays every tick: state completion, the cached compile, the search, the
result). Each tree runs in its own worker process (``git archive`` of the commit into
a temporary folder, on ``PYTHONPATH``); rounds alternate the trees, and each tree's
best median over the rounds is kept, so load on the shared machine hits every tree
alike. Specs come from ``goap.py`` of this tree, given to each worker as data.

    python benchmarks/bench_goap.py --baseline 48be81b bb68f3a --rounds 5
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
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))


def spec_data(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The GOAP spec of ``goap_spec(seed)`` as spec data (int facts) and its state."""
    from goap import goap_spec

    task, init = goap_spec(seed)
    values = task.decode(init)
    facts = {n: {"type": "int", "initial": int(values[i])} for i, n in enumerate(task.var_names)}
    actions = {}
    for o in task.operators:
        pre: dict[str, Any] = {}
        for v in o.pre_vars:
            allowed = [i for i in range(len(task.domains[v]))
                       if not (o.forbid >> (task.offsets[v] + i)) & 1]
            pre[task.var_names[v]] = allowed[0] if len(allowed) == 1 else {"in": allowed}
        eff = {task.var_names[task.bit_var[b]]: b - task.offsets[task.bit_var[b]] for b in o.eff_bits}
        actions[o.name] = {"pre": pre, "effects": eff, "cost": o.cost}
    goal: dict[str, Any] = {}
    for v in task.goal_vars:
        allowed = [i for i in range(len(task.domains[v]))
                   if not (task.goal_forbid >> (task.offsets[v] + i)) & 1]
        goal[task.var_names[v]] = allowed[0] if len(allowed) == 1 else {"in": allowed}
    data = {"goalkeeper": 1, "name": f"goap-{seed}", "goal": goal, "facts": facts,
            "actions": actions}
    return data, {n: int(values[i]) for i, n in enumerate(task.var_names)}


def worker(payload: dict[str, Any]) -> dict[str, float]:
    """Runs inside the tree under test: median seconds per warm call."""
    from goap import goap_spec

    from goalkeeper.model import spec_from_data
    from goalkeeper.planning import plan
    from goalkeeper.planning.search import get_search

    n = payload["n"]
    tasks = [goap_spec(seed) for seed in range(n)]
    astar = get_search("astar")
    for task, init in tasks:  # warm every task's caches, as a replanning runtime is
        astar(task, init)
    t_search = []
    for task, init in tasks:
        t0 = time.perf_counter()
        astar(task, init)
        t_search.append(time.perf_counter() - t0)
    specs = [(spec_from_data(d), s) for d, s in payload["specs"]]
    for spec, state in specs:
        plan(spec, state)
    t_plan = []
    for spec, state in specs:
        t0 = time.perf_counter()
        plan(spec, state)
        t_plan.append(time.perf_counter() - t0)
    t_search.sort()
    t_plan.sort()
    return {"search": t_search[n // 2], "plan": t_plan[n // 2]}


def tree_of(ref: str, tmp: Path) -> Path:
    out = tmp / ref
    out.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "src"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", nargs="*", default=[], help="commits to time beside this tree")
    ap.add_argument("--n", type=int, default=500, help="number of GOAP specs")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(Path(args.worker).read_text()))))
        return
    payload = {"n": args.n, "specs": [spec_data(seed) for seed in range(args.n)]}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        pfile = tmp / "payload.json"
        pfile.write_text(json.dumps(payload))
        # the compiled core stays out: GOAP-sized tasks are planned in pure Python
        trees = {"this tree": REPO / "src", **{ref: tree_of(ref, tmp) for ref in args.baseline}}
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for name, src in trees.items():
                env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{HERE}",
                       "GOALKEEPER_PLANNER_CORE": "python"}
                r = subprocess.run([sys.executable, __file__, "--worker", str(pfile)], env=env,
                                   check=True, capture_output=True, text=True)
                got = json.loads(r.stdout)
                old = best.setdefault(name, got)
                for k, v in got.items():
                    old[k] = min(old[k], v)
    ref = best["this tree"]
    print(f"{args.n} GOAP-sized specs, warm, best of {args.rounds} medians (pure-Python core)\n")
    print("| tree | astar search µs | ÷ this tree | plan() µs | ÷ this tree |")
    print("|---|---|---|---|---|")
    for name, b in best.items():
        print(f"| {name} | {b['search'] * 1e6:.1f} | {b['search'] / ref['search']:.2f} | "
              f"{b['plan'] * 1e6:.1f} | {b['plan'] / ref['plan']:.2f} |")


if __name__ == "__main__":
    main()
