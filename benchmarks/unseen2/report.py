"""The unseen2 tables from ``run.py``'s JSON rows: ``report.py OUT.md ROWS.json...``."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

FD_MIN = 0.03  # as bench_planners.py: below it both sides measure start-up noise
FLOOR = 1e-4


def _s(run: dict[str, Any] | None) -> str:
    if not run:
        return "-"
    if "seconds" not in run or "cost" not in run:
        note = str(run.get("note") or ("refused" if run.get("error") else "-"))
        if "does not support" in note:  # FD's A*+LM-cut on conditional effects / axioms
            note = "unsupported: " + note.split("does not support ")[1].split(" (")[0].split("!")[0]
        return note.splitlines()[0][:60].replace("|", "/")
    s = run["seconds"]
    return f"{s:.3f}" if s < 10 else f"{s:.1f}"


def _ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
    if not a or not b or "cost" not in a or "cost" not in b:
        return None
    return float(max(a["seconds"], FLOOR) / max(b["seconds"], FLOOR))


def _valid(run: dict[str, Any] | None) -> str:
    v = (run or {}).get("validation")
    if v is None:
        return "-"
    return {True: "yes", False: "NO", None: "?"}[v["valid"]]


def _med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}x" if xs else "-"


def _fmt(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}x"


def _mb(run: dict[str, Any] | None) -> str:
    mb = (run or {}).get("rss_mb")
    return "-" if mb is None else f"{mb:.0f}"


def _grow(run: dict[str, Any] | None) -> str:
    """Peak RSS growth during the search (the peak minus the RSS after grounding)."""
    run = run or {}
    if run.get("rss_mb") is None or run.get("rss_before_mb") is None:
        return "-"
    return f"{max(0.0, run['rss_mb'] - run['rss_before_mb']):.0f}"


def _sas_table(rows: list[dict[str, Any]], problems: list[str]) -> list[str]:
    out = ["| task | ours (FD translation) s | cost | expanded | how | FD s | FD cost | "
           "ours ÷ FD | cost = FD | valid |", "|" + "---|" * 10]
    ratios: list[float] = []
    for r in rows:
        a, fd = r.get("sas"), r.get("fd")
        if a is None:
            continue
        ratio = _ratio(a, fd)
        if ratio is not None and fd and fd["seconds"] >= FD_MIN:
            ratios.append(ratio)
        same = "-"
        if a and fd and "cost" in a and "cost" in fd:
            same = "yes" if abs(a["cost"] - fd["cost"]) < 1e-9 else "NO"
            if same == "NO":
                problems.append(f"{r['task']}: astar on FD's translation cost {a['cost']:g}, "
                                f"FD {fd['cost']:g}")
        if _valid(a) == "NO":
            problems.append(f"{r['task']}: astar (FD translation) plan invalid")
        out.append(f"| {r['task']} | {_s(a)} | {a.get('cost', '-')} | {a.get('expanded', '-')} | "
                   f"{a.get('how') or a.get('error', '-')} | {_s(fd)} | {(fd or {}).get('cost', '-')} | "
                   f"{_fmt(ratio)} | {same} | {_valid(a)} |")
    return [*out, "", f"Median ours (FD translation) ÷ FD over the {len(ratios)} tasks where FD "
            f"needs ≥ 0.03 s: {_med(ratios)}."]


def report(rows: list[dict[str, Any]]) -> str:
    lines = ["| task | facts | ops | ours s | cost | expanded | how | FD s | FD cost | "
             "FD expanded | ours ÷ FD | cost = FD | valid | ours MB (search) | FD MB | pyperplan s | "
             "pyperplan ÷ ours |", "|" + "---|" * 17]
    ratios: dict[str, list[float]] = {}
    strict: list[float] = []
    pp: list[float] = []
    problems: list[str] = []
    for r in rows:
        a, fd, pyp = r.get("astar"), r.get("fd"), r.get("pyperplan")
        dom = r["task"].split("/")[0]
        ratio = _ratio(a, fd)
        if ratio is not None and fd and fd["seconds"] >= FD_MIN:
            ratios.setdefault(dom, []).append(ratio)
            if fd["seconds"] >= 0.05:
                strict.append(ratio)
        ppr = _ratio(pyp, a)
        if ppr is not None:
            pp.append(ppr)
        same = "-"
        if a and fd and "cost" in a and "cost" in fd:
            same = "yes" if abs(a["cost"] - fd["cost"]) < 1e-9 else "NO"
            if same == "NO":
                problems.append(f"{r['task']}: astar cost {a['cost']:g}, FD {fd['cost']:g}")
        if _valid(a) == "NO":
            problems.append(f"{r['task']}: astar plan invalid: {a['validation']['why']}")  # type: ignore[index]
        if a and a.get("error"):
            problems.append(f"{r['task']}: load_pddl refused: {a['error']}")
        elif a and str(a.get("note", "")).startswith("crash"):
            problems.append(f"{r['task']}: astar {a['note']}")
        elif fd and "cost" in fd and a and "cost" not in a and a.get("note") != "skipped":
            problems.append(f"{r['task']}: FD solved it, astar: {a.get('note')}")
        lines.append(
            f"| {r['task']} | {(a or {}).get('facts', '-')} | {(a or {}).get('ops', '-')} | "
            f"{_s(a)} | {(a or {}).get('cost', '-')} | {(a or {}).get('expanded', '-')} | "
            f"{(a or {}).get('how', '-')} | {_s(fd)} | {(fd or {}).get('cost', '-')} | "
            f"{(fd or {}).get('expanded', '-')} | {_fmt(ratio)} | {same} | {_valid(a)} | "
            f"{_mb(a)} ({_grow(a)}) | {_mb(fd)} | {_s(pyp)} | {_fmt(ppr)} |")
    glines = ["| task | ours greedy s | cost | expanded | FD lazy-greedy FF s | FD cost | "
              "ours ÷ FD | valid |", "|" + "---|" * 8]
    gratios: list[float] = []
    gall: list[float] = []
    for r in rows:
        g, fg = r.get("greedy"), r.get("fd_greedy")
        gr = _ratio(g, fg)
        if gr is not None and fg and fg["seconds"] >= FD_MIN:
            gratios.append(gr)
        if gr is not None:
            gall.append(gr)
        if _valid(g) == "NO":
            problems.append(f"{r['task']}: greedy plan invalid: {g['validation']['why']}")  # type: ignore[index]
        glines.append(f"| {r['task']} | {_s(g)} | {(g or {}).get('cost', '-')} | "
                      f"{(g or {}).get('expanded', '-')} | {_s(fg)} | {(fg or {}).get('cost', '-')} | "
                      f"{_fmt(gr)} | {_valid(g)} |")
    every = [x for xs in ratios.values() for x in xs]
    summary = ["| domain | FD ≥ 0.03 s | ours ÷ FD (median) | worst |", "|---|---|---|---|"]
    summary += [f"| {d} | {len(xs)} | {_med(xs)} | {max(xs):.2f}x |" for d, xs in ratios.items()]
    out = ["## Summary", "", *summary, "",
           f"**Median ours ÷ FD (A*) over the {len(every)} tasks where FD needs ≥ 0.03 s: "
           f"{_med(every)}** ({sum(x <= 2 for x in every)} within 2x; "
           f"over the {len(strict)} with FD ≥ 0.05 s: {_med(strict)}).",
           f"Median pyperplan ÷ ours (A*): {_med(pp)} over {len(pp)} tasks both solved.",
           f"Median ours greedy ÷ FD lazy greedy FF: {_med(gratios)} over {len(gratios)} tasks "
           f"where FD needs ≥ 0.03 s ({_med(gall)} over all {len(gall)} both solved)."]
    sas = _sas_table(rows, problems)
    out += ["", "Problems found:", ""]
    out += [f"- {p}" for p in problems] or ["- none"]
    return "\n".join([*out, "", "## A* per task", "", *lines, "", "## Greedy per task", "",
                      *glines, "", "## A* on Fast Downward's translation (sas_task.py)", "",
                      *sas, ""])


if __name__ == "__main__":
    merged: dict[str, dict[str, Any]] = {}  # a later file's runs of a task replace earlier ones
    for f in sys.argv[2:]:
        for row in json.loads(Path(f).read_text()):
            merged.setdefault(row["task"], {}).update(row)
    Path(sys.argv[1]).write_text(report(sorted(merged.values(), key=lambda r: r["task"])))
