"""A GOAP run as one HTML page: status, the plan graph, the tick timeline, facts and replans.

:func:`render_run` is pure (a run state in, a page out); :func:`run_report`
reads the state and reconciles it with the event log first, as ``runs show``
does, so a crash that left the state behind its log is reported as the log says.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from ..model.conditions import format_value
from ..runtime.state import RunState, TickRecord
from ._page import esc, page, table, timeline

__all__ = ["render_run", "run_report"]

_STATUS_CSS = {"reached": "ok", "escalated": "bad", "error": "bad", "running": "info"}
_OUTCOME = {"ok": "#1a7f37", "failed": "#cf222e", "refused": "#9a6700", "interrupted": "#59636e"}


def _ts(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def _plan_graph(history: Sequence[TickRecord], plan: Sequence[str], status: str) -> str:
    """Every action in order, left to right: what ran (coloured by outcome), then what is still planned."""
    nodes = [(t.action, _OUTCOME.get(t.outcome, "#59636e"), f"tick {t.tick}: {t.outcome}", False) for t in history]
    nodes += [(a, "#8c959f", "planned", True) for a in plan]
    goal_fill = "#1a7f37" if status == "reached" else "#8c959f"
    nodes.append(("goal", goal_fill, f"goal ({status})", status != "reached"))
    per_row, w, h, gap = 5, 150, 34, 36
    rows = (len(nodes) + per_row - 1) // per_row
    width = per_row * (w + gap)
    height = rows * (h + 30) + 10
    parts = [f"<svg role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">",
             "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" "
             "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#59636e\"/></marker></defs>"]
    centres = []
    for i, (label, fill, tip, dashed) in enumerate(nodes):
        x = (i % per_row) * (w + gap) + 4
        y = (i // per_row) * (h + 30) + 6
        centres.append((x, y))
        dash = " stroke-dasharray=\"4 3\"" if dashed else ""
        text = label if len(label) <= 20 else label[:19] + "…"
        parts.append(f"<g class=\"node\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"6\" "
                     f"fill=\"{fill}\" fill-opacity=\"0.15\" stroke=\"{fill}\"{dash}><title>{esc(label)}: "
                     f"{esc(tip)}</title></rect><text x=\"{x + w / 2}\" y=\"{y + h / 2 + 4}\" "
                     f"text-anchor=\"middle\">{esc(text)}</text></g>")
    for (x1, y1), (x2, y2) in zip(centres, centres[1:], strict=False):
        if y1 == y2:
            parts.append(f"<line x1=\"{x1 + w}\" y1=\"{y1 + h / 2}\" x2=\"{x2 - 2}\" y2=\"{y2 + h / 2}\" "
                         "stroke=\"#59636e\" marker-end=\"url(#arrow)\"/>")
        else:  # wrap to the next row
            parts.append(f"<path d=\"M{x1 + w / 2},{y1 + h} V{y1 + h + 15} H{x2 + w / 2} V{y2 - 2}\" fill=\"none\" "
                         "stroke=\"#59636e\" marker-end=\"url(#arrow)\"/>")
    parts.append("</svg>")
    return "".join(parts)


def _tick_strips(history: Sequence[TickRecord]) -> list[tuple[str, list[tuple[float, float, str, str]]]]:
    t0 = next((s for s in (_ts(t.started) for t in history) if s is not None), None)
    strips = []
    for t in history:
        start = _ts(t.started)
        offset = (start - t0).total_seconds() if start and t0 else 0.0
        strips.append((f"tick {t.tick}", [(max(0.0, offset), max(t.seconds, 0.0), _OUTCOME.get(t.outcome, "#59636e"),
                                          f"{t.action}: {t.outcome}, {t.seconds:.2f} s")]))
    return strips


def _section(name: str, title: str, inner: str) -> str:
    return f"<section data-section=\"{esc(name)}\"><h2>{esc(title)}</h2>{inner}</section>"


def render_run(st: RunState) -> str:
    """The report page of one run (pure)."""
    head = (f"<h1>run <code id=\"run-id\">{esc(st.run_id)}</code> "
            f"<span id=\"outcome\" class=\"badge {_STATUS_CSS.get(st.status, 'info')}\">{esc(st.status)}</span></h1>"
            f"<p class=\"sub\">spec {esc(st.spec_name)} · {esc(st.spec_path)}</p>")
    kv = [("ticks", f"{st.tick}" + (f" of {st.max_ticks}" if st.max_ticks else "")),
          ("runtime", st.runtime + (f" ({st.model})" if st.model else "")), ("search", st.search),
          ("model cost", f"${st.cost_dollars:.2f}" + (" (some unknown)" if st.cost_unknown else "")),
          ("strikes", str(st.strikes)), ("created", st.created), ("updated", st.updated)]
    if st.escalation:
        kv.insert(0, ("escalated", f"{st.escalation.get('reason', '?')}: {st.escalation.get('detail', '')}"))
    summary = "<div class=\"card\"><dl class=\"kv\">" + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in kv) + "</dl></div>"
    facts = table(["fact", "value", "source"], [
        (f, format_value(v), st.sources.get(f, "") + (f" ({st.errors[f]})" if f in st.errors else ""))
        for f, v in st.facts.items()])
    ticks = table(["tick", "action", "outcome", "seconds", "reason"], [
        (str(t.tick), t.action, t.outcome, f"{t.seconds:.2f}",
         t.reason + (f" (missing effects: {', '.join(t.missing_effects)})" if t.missing_effects else ""))
        for t in st.history]) if st.history else "<p class=\"sub\">no tick has run</p>"
    replans = table(["tick", "failed", "corrections", "blocked"], [
        (str(r.tick), ", ".join(r.failed),
         ", ".join(f"{c.get('fact')}: {format_value(c.get('believed'))} → {format_value(c.get('observed'))}"
                   for c in r.corrections) or "none", ", ".join(r.blocked))
        for r in st.replans]) if st.replans else "<p class=\"sub\">no replan</p>"
    body = (head + _section("summary", "Outcome", summary)
            + _section("plan", "Plan", _plan_graph(st.history, st.plan, st.status))
            + _section("timeline", "Tick timeline", timeline(_tick_strips(st.history)))
            + _section("ticks", "Ticks", ticks)
            + _section("facts", "Facts", facts)
            + _section("replans", "Replans", replans))
    return page(f"goalkeeper run {st.run_id}: {st.status}", body)


def run_report(run_id: str, root: Path | None = None) -> str:
    """The report page of a stored run, reconciled with its event log."""
    from ..errors import CorruptStateError
    from ..runtime.state import RunStore, reconcile

    store = RunStore(run_id, root)
    st = store.load()
    with contextlib.suppress(CorruptStateError):  # unreadable log: the state as saved
        st, _ = reconcile(st, store.events())
    return render_run(st)
