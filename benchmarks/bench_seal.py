"""What sealing costs per iteration on a large workspace, excluding the checks themselves.

    python benchmarks/bench_seal.py [--files 10000] [--repeat 5]

Builds a git workspace of N small files, baselines a goal on it (the
reference run of a trivial check is excluded), then times each per-iteration
step the loop adds: the whole-tree walk (warm stat cache, as in a running
loop, and cold, as after a restart), the findings (protected paths,
suppression scan of the changed files, toolchain refresh), the checkpoint of
the changed tree, and containment (a command through the guard against a
bare subprocess). One maker edit of 20 files per iteration.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from goalkeeper.convergence.goal import Goal, StoppingCondition
from goalkeeper.convergence.seal import Seal
from goalkeeper.convergence.tree import Hasher
from goalkeeper.proc import run_argv


def make_workspace(root: Path, n: int) -> Path:
    ws = root / "ws"
    for i in range(n):
        d = ws / f"pkg{i // 200}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"mod{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    return ws


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["GOALKEEPER_KEYS"] = str(root / "keys")
        ws = make_workspace(root, ns.files)
        home = root / "home"
        goal = Goal(goal_id="goal-bench001", objective="bench", workspace=str(ws),
                    stopping_conditions=[StoppingCondition(command=["true"])])
        seal = Seal(goal, ws, home)
        t = time.perf_counter()
        seal.take_baseline()
        baseline = time.perf_counter() - t
        counter = [0]

        def edit() -> None:
            counter[0] += 1
            for i in range(20):
                (ws / f"pkg{i}" / f"mod{i * 200}.py").write_text(f"def f(x):\n    return x * {counter[0]}\n")

        parent = [seal.baseline_checkpoint]

        def iteration() -> None:
            tree = seal.walk()
            seal.findings(tree)
            parent[0] = seal.checkpoint(tree, "it", parent[0], "refs/goalkeeper/bench/it")

        rows = []
        edit()
        rows.append(("walk, warm stat cache (running loop)", timed(seal.walk, ns.repeat)))
        rows.append(("walk, cold (after a restart)", timed(lambda: (setattr(seal, "hasher", Hasher()), seal.walk()),
                                                           ns.repeat)))
        tree = seal.walk()
        rows.append(("findings: protected + scan + toolchain", timed(lambda: seal.findings(tree), ns.repeat)))

        def cp() -> None:
            edit()
            parent[0] = seal.checkpoint(seal.walk(), "it", parent[0], "refs/goalkeeper/bench/it")

        rows.append(("checkpoint of 20 changed files (with its walk)", timed(cp, ns.repeat)))
        bare = timed(lambda: subprocess.run(["true"], check=True), ns.repeat * 4)
        guarded = timed(lambda: run_argv(["true"], cwd=ws, strict=True), ns.repeat * 4)
        rows.append(("containment: guard + PID namespace, minus a bare spawn", guarded - bare))

        def whole() -> None:  # what GoalLoop does around one maker run, its checks and its oracle
            seal.walk()  # before the maker
            edit()
            iteration()  # after the maker: walk, findings, checkpoint
            for _ in range(2):  # around the checks, then around the oracle
                seal.walk()
                seal.walk()
                seal.toolchain_changes()

        total = timed(whole, ns.repeat)
        rows.append(("whole iteration as the loop does it (6 walks, findings, checkpoint, 2 toolchain checks)",
                     total))
    print(f"# Sealing cost per iteration, {ns.files:,} files, median of {ns.repeat}\n")
    print(f"python {sys.version.split()[0]}, baseline (one-off, incl. a trivial check): {baseline:.2f} s\n")
    print("| step | seconds |\n|---|---:|")
    for name, sec in rows:
        print(f"| {name} | {sec:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
