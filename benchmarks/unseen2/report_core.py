"""Before/after tables for a compiled-core change, from ``run.py`` rows made in one run.

``report_core.py OUT.md GREEDY.json [MEMORY.json]`` (each may be several files joined
by commas; a later file's runs of a task replace earlier ones): the greedy rows need the planners
``greedy`` (as built), ``greedy_py`` (the pure-Python core) and ``fd_greedy``; the
memory rows ``astar`` (as built), ``astar_base`` (the core at ``$GOALKEEPER_BASE_CORE``)
and ``fd``. Ratios as in ``report.py``: times under 0.1 ms count as 0.1 ms, and the
headline medians are over tasks where FD's search needs at least 0.03 s.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from report import FD_MIN, _grow, _mb, _ratio, _s, _valid

Row = dict[str, Any]


def _med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}x" if xs else "-"


def _x(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}x"


def greedy_table(rows: list[Row]) -> list[str]:
    out = ["| task | auto s | Python s | FD s | auto ÷ FD | Python ÷ FD | Python ÷ auto | expanded "
           "(ours / FD) | cost (ours / FD) | valid |", "|" + "---|" * 10]
    c_fd: list[float] = []
    p_fd: list[float] = []
    c_fd_big: list[float] = []
    p_fd_big: list[float] = []
    speedup: list[float] = []
    same = 0
    for r in rows:
        c, p, f = r.get("greedy"), r.get("greedy_py"), r.get("fd_greedy")
        rc, rp, cp = _ratio(c, f), _ratio(p, f), _ratio(p, c)
        if c and p and c.get("plan") == p.get("plan") and "plan" in c:
            same += 1
        if rc is not None and rp is not None:
            c_fd.append(rc)
            p_fd.append(rp)
            if f and f["seconds"] >= FD_MIN:
                c_fd_big.append(rc)
                p_fd_big.append(rp)
        if cp is not None and c and c["seconds"] >= 0.01:
            speedup.append(cp)
        out.append(
            f"| {r['task']} | {_s(c)} | {_s(p)} | {_s(f)} | {_x(rc)} | {_x(rp)} | {_x(cp)} | "
            f"{(c or {}).get('expanded', '-')} / {(f or {}).get('expanded', '-')} | "
            f"{(c or {}).get('cost', '-')} / {(f or {}).get('cost', '-')} | {_valid(c)} |")
    head = [
        "`auto` is what `search=\"greedy\"` runs: the compiled core, or Python below 48 "
        "operators after pruning (`core.SMALL`).",
        "",
        f"- auto ÷ FD, median: **{_med(c_fd_big)}** over the {len(c_fd_big)} tasks with FD ≥ "
        f"{FD_MIN} s; {_med(c_fd)} over all {len(c_fd)} both solved.",
        f"- Python ÷ FD, median: {_med(p_fd_big)} over the same {len(p_fd_big)}; "
        f"{_med(p_fd)} over all {len(p_fd)}.",
        f"- Python ÷ auto, median over the {len(speedup)} tasks where auto needs ≥ 0.01 s: "
        f"{_med(speedup)}; identical plans on {same} of {len(rows)} tasks.",
    ]
    return [*head, "", *out]


def memory_table(rows: list[Row]) -> list[str]:
    out = ["| task | after s | before s | FD s | after ÷ FD | before ÷ FD | expanded | "
           "cost (ours / FD) | peak RSS MB after (growth) | before (growth) | FD MB |",
           "|" + "---|" * 11]
    for r in rows:
        a, b, f = r.get("astar"), r.get("astar_base"), r.get("fd")
        out.append(
            f"| {r['task']} | {_s(a)} | {_s(b)} | {_s(f)} | {_x(_ratio(a, f))} | "
            f"{_x(_ratio(b, f))} | {(a or {}).get('expanded', '-')} | "
            f"{(a or {}).get('cost', '-')} / {(f or {}).get('cost', '-')} | "
            f"{_mb(a)} ({_grow(a)}) | {_mb(b)} ({_grow(b)}) | {_mb(f)} |")
    return out


def main() -> None:
    def load(paths: str) -> list[Row]:
        merged: dict[str, Row] = {}
        for path in paths.split(","):
            for row in json.loads(Path(path).read_text()):
                merged.setdefault(row["task"], {}).update(row)
        return sorted(merged.values(), key=lambda r: r["task"])

    parts = ["## Greedy: compiled core, Python core, FD lazy greedy FF (one run)", "",
             *greedy_table(load(sys.argv[2]))]
    if len(sys.argv) > 3:
        parts += ["", "## LM-cut A*: after and before the cut pool, and FD (one run)", "",
                  *memory_table(load(sys.argv[3]))]
    Path(sys.argv[1]).write_text("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
