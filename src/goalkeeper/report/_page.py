"""The parts every HTML report shares: one self-contained page, escaped text, inline SVG charts.

A report is opened from a file, mailed, attached to a ticket: it must render
with no network at all. So the page carries its own CSS, draws its charts
as inline SVG (no chart library, no fonts, no images to fetch), and states
that in a Content-Security-Policy that forbids every fetch; a page that
tried to load anything would show it as a console error in the browser test.
Every piece of text from a goal or a run (objectives, command output, file
names) is written through :func:`esc`, so a maker's output cannot inject
markup into the report.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Bar", "bar_chart", "esc", "page", "table", "timeline"]

_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.sub{color:#59636e}.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:14px 16px;margin:10px 0}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px}.kv dt{color:#59636e}.kv dd{margin:0}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:5px 8px;
border-bottom:1px solid #e6e9ed;vertical-align:top}th{background:#eef1f4;font-weight:600}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}pre{white-space:pre-wrap;
word-break:break-word;background:#f0f2f5;padding:8px;border-radius:6px;max-height:320px;overflow:auto;margin:4px 0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
.ok{background:#1a7f37}.bad{background:#cf222e}.warn{background:#9a6700}.info{background:#59636e}
.pass{color:#1a7f37}.fail{color:#cf222e}svg text{font:11px system-ui,sans-serif;fill:#1d232a}
details summary{cursor:pointer;color:#0969da}
"""
# Marks the page as rendered; any script error is written into the page, so a check that reads
# the DOM (a headless browser's --dump-dom) sees it even where the console is not captured.
_SCRIPT = """
window.addEventListener("error", function (e) {
  document.body.setAttribute("data-report-error", String(e.message));
});
document.addEventListener("DOMContentLoaded", function () {
  var n = document.querySelectorAll("[data-section]").length;
  document.body.setAttribute("data-report-ok", String(n));
});
"""


def esc(value: object) -> str:
    """Text as HTML (quotes too, so it is safe in attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_CSP}\">"
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
        f"<title>{esc(title)}</title><style>{_CSS}</style></head>"
        f"<body><main>{body}</main><script>{_SCRIPT}</script></body></html>\n"
    )


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, raw: bool = False) -> str:
    """Rows of cells; ``raw`` cells are already HTML (the caller escaped what needs it)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c if raw else esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: float
    css: str = "#0969da"
    title: str = ""


def bar_chart(bars: Sequence[Bar], *, unit: str, width: int = 720, row: int = 22) -> str:
    """Horizontal bars, one per item, labelled with the value; empty when there is nothing."""
    if not bars:
        return "<p class=\"sub\">nothing to chart</p>"
    top = max(b.value for b in bars) or 1.0
    left, right = 120, 90
    span = width - left - right
    h = row * len(bars) + 4
    parts = [f"<svg role=\"img\" width=\"{width}\" height=\"{h}\" viewBox=\"0 0 {width} {h}\">"]
    for i, b in enumerate(bars):
        y = i * row + 2
        w = max(1.0, span * b.value / top) if b.value > 0 else 0.0
        parts.append(f"<text x=\"{left - 6}\" y=\"{y + 14}\" text-anchor=\"end\">{esc(b.label)}</text>")
        parts.append(f"<rect x=\"{left}\" y=\"{y + 3}\" width=\"{w:.1f}\" height=\"{row - 8}\" fill=\"{b.css}\" "
                     f"rx=\"2\"><title>{esc(b.title or b.label)}</title></rect>")
        parts.append(f"<text x=\"{left + w + 6:.1f}\" y=\"{y + 14}\">{esc(_num(b.value, unit))}</text>")
    parts.append("</svg>")
    return "".join(parts)


def timeline(rows: Sequence[tuple[str, Sequence[tuple[float, float, str, str]]]], *, width: int = 720,
             row: int = 22) -> str:
    """A Gantt strip per row: (label, [(start s, length s, colour, tooltip), ...]), on one time axis."""
    if not rows:
        return "<p class=\"sub\">no timing recorded</p>"
    end = max((s + d for _, segs in rows for s, d, _, _ in segs), default=0.0) or 1.0
    left, right = 120, 20
    span = width - left - right
    h = row * len(rows) + 20
    parts = [f"<svg role=\"img\" width=\"{width}\" height=\"{h}\" viewBox=\"0 0 {width} {h}\">"]
    for i, (label, segs) in enumerate(rows):
        y = i * row + 2
        parts.append(f"<text x=\"{left - 6}\" y=\"{y + 14}\" text-anchor=\"end\">{esc(label)}</text>")
        for start, length, colour, tip in segs:
            x = left + span * start / end
            w = max(1.0, span * length / end)
            parts.append(f"<rect x=\"{x:.1f}\" y=\"{y + 3}\" width=\"{w:.1f}\" height=\"{row - 8}\" "
                         f"fill=\"{colour}\"><title>{esc(tip)}</title></rect>")
    parts.append(f"<text x=\"{left}\" y=\"{h - 4}\">0 s</text>"
                 f"<text x=\"{width - right}\" y=\"{h - 4}\" text-anchor=\"end\">{esc(_num(end, 's'))}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _num(v: float, unit: str) -> str:
    if unit == "$":
        return f"${v:.4f}" if 0 < v < 0.01 else f"${v:.2f}"
    if unit == "s":
        return f"{v:.2f} s" if v < 10 else f"{v:.0f} s"
    return f"{v:g} {unit}".strip()
