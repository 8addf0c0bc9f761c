"""Rows and the Markdown report of bench_planners.py (per-domain median ratios)."""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["FD_MIN", "Row", "Run", "write_report"]

FD_MIN = 0.03  # seconds: the tasks where Fast Downward's search time is measurable


@dataclass
class Run:
    seconds: float | None = None  # None: timed out / failed
    cost: float | None = None
    expanded: int | None = None
    note: str = ""

    def short(self) -> str:
        if self.seconds is None:
            return self.note or "-"
        return f"{fmt_s(self)} ({self.cost:g})"


@dataclass
class Row:
    name: str
    facts: int = 0
    ops: int = 0
    ground_s: float = 0.0
    runs: dict[str, Run] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Row:
        runs = {k: Run(**v) for k, v in d.pop("runs").items()}
        return cls(**d, runs=runs)


def fmt_s(r: Run | None) -> str:
    if r is None:
        return "-"
    if r.seconds is None:
        return r.note or "-"
    return f"{r.seconds:.3f}" if r.seconds < 10 else f"{r.seconds:.1f}"


def _cost(r: Run | None) -> str:
    return "-" if r is None or r.cost is None else f"{r.cost:g}"


def _exp(r: Run | None) -> str:
    return "-" if r is None or r.expanded is None else str(r.expanded)


def _ok(r: Run | None) -> bool:
    return r is not None and r.seconds is not None


def _ratio(a: float, b: float) -> float:
    return max(a, 1e-4) / max(b, 1e-4)  # 0.1 ms floor: below it timers only show noise


def _med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}x" if xs else "-"


def write_report(path: Path, rows: list[Row], goap: list[tuple[str, float, float, float]],
                 args: argparse.Namespace, meta: dict[str, Any]) -> None:
    load = os.getloadavg()
    lines = ["# Planner benchmark results", ""]
    cmds = meta.get("commands", [])
    if len(cmds) > 2:
        lines.append(f"Produced by `benchmarks/run_all.sh`: {len(cmds)} runs such as `{cmds[0]}`, "
                     "merged with `python benchmarks/bench_planners.py --merge "
                     "benchmarks/.cache/*.json`.")
    else:
        lines += [f"Produced by `{cmd}`." for cmd in cmds]
    lines += ["", f"CPython {platform.python_version()}, {os.cpu_count()} cores, report written "
              f"{time.strftime('%Y-%m-%d %H:%M')}, load average then {load[0]:.1f} / "
              f"{load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min; the machine is shared).", ""]
    lines += [
        "Times are CPU seconds of the search alone. Ours: `astar` in process (default "
        "heuristic choice, which races blind search against LM-cut A*), grounding excluded, "
        "per-task preprocessing (pruning, relaxation, packing for the compiled core) "
        "included. FD: Fast Downward `astar(lmcut())`, its reported search time (translation "
        "and preprocessing excluded). pyperplan: A* + LM-cut, search only. CPU time keeps "
        "the ratios fair on a loaded machine; timeouts are wall-clock. "
        f"**ours ÷ FD** is our time over FD's on tasks where FD's search takes at least "
        f"{FD_MIN:g} s (below that both are start-up noise); **pyperplan ÷ ours** is the "
        "speed-up over pyperplan on tasks both solved. Times under 0.1 ms count as 0.1 ms.",
        "",
    ]
    domains: dict[str, list[Row]] = {}
    for r in rows:
        domains.setdefault(r.name.split("/")[0], []).append(r)
    all_fd: list[float] = []
    all_pp: list[float] = []
    mismatches: list[str] = []
    missed: list[str] = []
    lines += ["## Per domain", "",
              "| domain | tasks | FD solved | ours solved | FD ≥ 0.03 s | ours ÷ FD (median) "
              "| ours ÷ FD (all both solved) | pyperplan ÷ ours (median) | slowest ours ÷ FD |",
              "|---|---|---|---|---|---|---|---|---|"]
    for dom, drows in domains.items():
        fd_r, pp_r, both = [], [], []
        for r in drows:
            a, f, p = r.runs.get("astar"), r.runs.get("fd"), r.runs.get("pyperplan")
            for ref in (f, p):
                if _ok(ref) and _ok(a) and ref.cost != a.cost:  # type: ignore[union-attr]
                    mismatches.append(r.name)
            if _ok(f) and not _ok(a):
                missed.append(r.name)
            if _ok(a) and _ok(f):
                both.append(_ratio(a.seconds, f.seconds))  # type: ignore[arg-type, union-attr]
                if f.seconds >= FD_MIN:  # type: ignore[operator, union-attr]
                    fd_r.append(_ratio(a.seconds, f.seconds))  # type: ignore[arg-type, union-attr]
            if _ok(a) and _ok(p):
                pp_r.append(_ratio(p.seconds, a.seconds))  # type: ignore[arg-type, union-attr]
        all_fd += fd_r
        all_pp += pp_r
        nfd = sum(_ok(r.runs.get("fd")) for r in drows)
        nours = sum(_ok(r.runs.get("astar")) for r in drows)
        lines.append(f"| {dom} | {len(drows)} | {nfd} | {nours} | {len(fd_r)} | {_med(fd_r)} | "
                     f"{_med(both)} | {_med(pp_r)} | "
                     f"{(f'{max(fd_r):.2f}x' if fd_r else '-')} |")
    lines.append("")
    if all_fd:
        within = sum(x <= 2.0 for x in all_fd)
        lines.append(f"**Median ours ÷ FD over the {len(all_fd)} tasks where FD needs at least "
                     f"{FD_MIN:g} s: {statistics.median(all_fd):.2f}x** ({within} of them within "
                     f"2x; best {min(all_fd):.2f}x, worst {max(all_fd):.2f}x).")
    if all_pp:
        lines.append(f"**Median speed-up over pyperplan: {statistics.median(all_pp):.1f}x** over "
                     f"{len(all_pp)} tasks both solved.")
    lines.append(f"Optimal cost mismatches vs FD or pyperplan: {', '.join(mismatches) or 'none'}.")
    lines.append(f"Tasks FD solved and we did not: {', '.join(missed) or 'none'}.")
    lines += ["", "## Per task", ""]
    head = ("| task | facts | ops | ours s | cost | expanded | how | FD s | FD cost | FD expanded "
            "| pyperplan s | pp cost | ours ÷ FD |")
    sep = "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    greedy = any("greedy" in r.runs for r in rows)
    if greedy:
        head += " greedy s | greedy cost |"
        sep += "---|---|"
    lines += [head, sep]
    for r in rows:
        a, f, p = r.runs.get("astar"), r.runs.get("fd"), r.runs.get("pyperplan")
        ratio = ""
        if _ok(a) and _ok(f):
            ratio = f"{_ratio(a.seconds, f.seconds):.2f}x"  # type: ignore[arg-type, union-attr]
        line = (f"| {r.name} | {r.facts} | {r.ops} | {fmt_s(a)} | {_cost(a)} | {_exp(a)} | "
                f"{a.note if a and a.seconds is not None else ''} | {fmt_s(f)} | {_cost(f)} | "
                f"{_exp(f)} | {fmt_s(p)} | {_cost(p)} | {ratio} |")
        if greedy:
            g = r.runs.get("greedy")
            line += f" {fmt_s(g)} | {_cost(g)} |"
        lines.append(line)
    if goap:
        lines += ["", f"## GOAP-sized specs ({args.goap} random solvable specs, 10-30 facts "
                  "and actions, benchmarks/goap.py; wall-clock per call, warm)", "",
                  "| search | median ms | p90 ms | mean plan length |", "|---|---|---|---|"]
        lines += [f"| {m} | {med:.3f} | {p90:.3f} | {ln:.2f} |" for m, med, p90, ln in goap]
    notes = HERE_NOTES.read_text() if HERE_NOTES.exists() else ""
    if notes:
        lines += ["", notes.rstrip()]
    path.write_text("\n".join(lines) + "\n")


HERE_NOTES = Path(__file__).resolve().parent / "RESULTS_NOTES.md"
