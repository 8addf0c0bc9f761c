"""Why is one task slow? Variants of our A* on it, beside Fast Downward's numbers.

    python benchmarks/unseen2/profile_task.py parking/task08

Prints, for the default race and for LM-cut A* alone in each tie-breaking order
(``tiebreak.orders``), with and without strong stubborn sets: CPU seconds,
expansions, generated states, time per expansion and h(init); then the order the
race's sampling picks, and Fast Downward's expansions, h(init) and time per expansion
(from its log). Breadth-first search alone runs too, with a cap.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from fd_run import fd_script  # type: ignore[import-not-found]  # noqa: E402

from goalkeeper.planning.pddl import load_pddl  # noqa: E402
from goalkeeper.planning.result import SearchLimits  # noqa: E402
from goalkeeper.planning.search import astar as astar_mod  # noqa: E402, F401
from goalkeeper.planning.search import get_search, stubborn  # noqa: E402
from goalkeeper.planning.search._common import prune_operators  # noqa: E402
from goalkeeper.planning.search.astar import drain  # noqa: E402
from goalkeeper.planning.search.core import get_core  # noqa: E402
from goalkeeper.planning.search.tiebreak import orders, pick_order  # noqa: E402


def fd_numbers(dom: Path, prob: Path) -> str:
    script = fd_script()
    if script is None:
        return "FD: not installed"
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, str(script), str(dom), str(prob), "--search",
                              "astar(lmcut())"], capture_output=True, text=True, cwd=tmp,
                             timeout=300).stdout
    h0 = re.search(r"Initial heuristic value for lmcut\(\): (\d+)", out) or re.search(
        r"New best heuristic value for lmcut\(\): (\d+)", out)
    exp = re.findall(r"Expanded (\d+) state", out)
    last = re.search(r"Expanded until last jump: (\d+)", out)
    gen = re.findall(r"Generated (\d+) state", out)
    ev = re.findall(r"Evaluated (\d+) state", out)
    st = re.search(r"Search time: ([\d.]+)s", out)
    n = int(exp[-1]) if exp else 0
    secs = float(st.group(1)) if st else float("nan")
    return (f"FD astar(lmcut()): {secs:.3f} s, expanded {n} (until last jump "
            f"{last.group(1) if last else '?'}), generated {gen[-1] if gen else '?'}, evaluated "
            f"{ev[-1] if ev else '?'}, h(init) {h0.group(1) if h0 else '?'}, "
            f"{1e3 * secs / max(n, 1):.3f} ms/expansion")


def main() -> None:
    name = sys.argv[1]
    cap = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    dom = HERE / "pddl" / name.split("/")[0] / "domain.pddl"
    prob = HERE / "pddl" / f"{name}.pddl"
    task, init = load_pddl(dom, prob)
    lim = SearchLimits(max_seconds=cap, max_memory_mb=None)
    pruned = prune_operators(task, init, frozenset())
    ops = pruned.ops
    core = get_core("c", ops)
    print(f"{name}: {len(task.var_names)} facts, {len(task.operators)} ops, "
          f"{len(ops)} after pruning")
    bits = core.prop_bits(task, ops)
    cands = orders(bits)
    t0 = time.process_time()
    chosen = pick_order(task, init, ops, core, bits)
    pick_s = time.process_time() - t0
    k = next(i for i, c in enumerate(cands) if c == chosen)
    print(f"tie-breaking sample picks order {k} in {pick_s * 1e3:.1f} ms; h(init) per order: "
          + ", ".join(f"{core.lmcut_value(task, ops, init, c):g}" for c in cands))

    def show(label: str, run: object) -> None:
        t0 = time.process_time()
        out = run()  # type: ignore[operator]
        dt = time.process_time() - t0
        status = f"cost {out.cost:g}" if out.plan is not None else "no plan (limit)"
        print(f"  {label:34s} {dt:8.3f} s  expanded {out.expanded:8d}  generated "
              f"{out.generated:9d}  {1e3 * dt / max(out.expanded, 1):.3f} ms/exp  {status}  "
              f"[{out.heuristic}]", flush=True)

    start = stubborn.START
    for sss in (True, False):
        stubborn.START = start if sss else 10**15
        tag = "sss" if sss else "no sss"
        show(f"race (default) [{tag}]", lambda: get_search("astar")(task, init, limits=lim))
        for i, order in enumerate(cands):
            show(f"lmcut order {i} [{tag}]",
                 lambda order=order: drain(core.lmcut_steps(task, init, ops, lim, None, order)))
        show(f"bfs alone [{tag}]", lambda: drain(core.bfs_steps(task, init, ops, lim)))
    stubborn.START = start
    print(fd_numbers(dom, prob))


if __name__ == "__main__":
    main()
