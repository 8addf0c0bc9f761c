"""Escalation: the report a human needs (JSON and Markdown) and the triage item, filed once.

What goes into them is decided by the machine (``machine.Escalate``); this
module renders and files it, for the local driver and the Temporal activities
alike.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from ..model.conditions import format_value
from ..model.spec import Spec
from ..store import file_item, list_items, write_json_atomic, write_text_atomic
from .machine import Escalate, Filed
from .state import RunState, RunStore

__all__ = ["build_report", "file_escalation", "render_markdown", "until_commands"]


def until_commands(spec_path: str | Path) -> tuple[str, ...]:
    """The stopping condition of a goal made from this run's escalation: the spec's goal, observed."""
    return (shlex.join(["goalkeeper", "observe", str(spec_path), "--check"]),)


def build_report(spec: Spec, state: RunState, esc: Escalate) -> dict[str, Any]:
    return {
        "run_id": state.run_id,
        "spec": state.spec_path,
        "spec_name": state.spec_name,
        "reason": esc.reason,
        "message": esc.message,
        "tick": state.tick,
        "max_ticks": state.max_ticks,
        "goal": [str(c) for c in spec.goal_conditions],
        "facts": {
            f: {"value": v, "source": state.sources.get(f, "observed"), **({"error": state.errors[f]} if f in state.errors else {})}
            for f, v in state.facts.items()
        },
        "unreachable": [dict(u) for u in esc.unreachable],
        "gaps": [dict(g) for g in esc.gaps],
        "blocked_actions": list(esc.blocked),
        "failures": [t.model_dump(mode="json") for t in state.history if t.outcome != "ok"],
        "replans": [r.model_dump(mode="json") for r in state.replans],
        "suggested_actions": list(esc.suggestions),
    }


def file_escalation(spec: Spec, state: RunState, esc: Escalate, store: RunStore, root: Path | None) -> Filed:
    """Write report.json/.md and file the triage item. Filing again for the same run, tick and
    reason (a crash before ``run.escalated`` was logged, an activity retried) reuses the item."""
    report = build_report(spec, state, esc)
    md = render_markdown(report)
    write_json_atomic(store.dir / "report.json", report)
    write_text_atomic(store.dir / "report.md", md)
    tick = esc.context.get("tick")
    for item in list_items(status="pending", root=root):
        if (item.source, item.source_id, item.reason, item.context.get("tick")) == ("run", state.run_id, esc.reason, tick):
            return Filed(item.id, str(store.dir / "report.md"))
    item = file_item(
        source="run", source_id=state.run_id, reason=esc.reason, summary=esc.summary,
        context={**esc.context, "report": str(store.dir / "report.json")},
        suggested_actions=list(esc.suggestions), severity=esc.severity, markdown=md, root=root,
    )
    return Filed(item.id, str(store.dir / "report.md"))


def _tree(setters: list[dict[str, Any]], depth: int) -> list[str]:
    lines: list[str] = []
    pad = "  " * depth
    for s in setters:
        tag = " (excluded: failed until the strike limit)" if s["excluded"] else ""
        if not s["blocked"]:
            lines.append(f"{pad}- `{s['action']}` could set it{tag}")
            continue
        lines.append(f"{pad}- `{s['action']}`{tag} is blocked by:")
        for b in s["blocked"]:
            tail = "" if b["setters"] else " — no available action sets it"
            lines.append(f"{pad}  - `{b['fact']} {b['condition']}`{tail}")
            lines.extend(_tree(b["setters"], depth + 2))
    return lines


def render_markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# Escalation: run {report['run_id']} ({report['spec_name']})",
        "",
        f"**Reason:** {report['reason']} — {report['message']}",
        "",
        f"Goal: {', '.join('`' + g + '`' for g in report['goal'])}. Ticks used: {report['tick']}"
        + (f" of {report['max_ticks']}." if report["max_ticks"] else "."),
        "",
    ]
    if report["gaps"]:
        lines += ["## What would close the gap", ""]
        for g in report["gaps"]:
            root = " — **root: no available action sets it**" if g["root"] else ""
            lines.append(f"- action `{g['action']}` needs `{g['fact']} {g['condition']}`{root}")
        lines.append("")
    if report["unreachable"]:
        lines += ["## Unreachable goal facts", ""]
        for u in report["unreachable"]:
            lines.append(f"- `{u['fact']} {u['condition']}` (now {format_value(u['current'])})")
            lines.extend("  " + x for x in _tree(u["setters"], 0))
            if not u["setters"]:
                lines.append("  - no action sets it")
        lines.append("")
    lines += ["## Observed facts", "", "| fact | value | source |", "|---|---|---|"]
    for f, info in report["facts"].items():
        src = info["source"] + (f" ({info['error']})" if "error" in info else "")
        lines.append(f"| {f} | {format_value(info['value'])} | {src} |")
    lines.append("")
    if report["failures"]:
        lines += ["## Failure history", "", "| tick | action | outcome | reason |", "|---|---|---|---|"]
        for t in report["failures"]:
            reason = str(t["reason"]).replace("|", "\\|").replace("\n", " ")[:200]
            lines.append(f"| {t['tick']} | {t['action']} | {t['outcome']} | {reason} |")
        lines.append("")
    if report["replans"]:
        lines += ["## Replans", ""]
        for r in report["replans"]:
            fixes = ", ".join(
                f"`{c['fact']}` believed {format_value(c['believed'])}, observed {format_value(c['observed'])}"
                for c in r["corrections"]
            ) or "no belief was wrong"
            lines.append(f"- tick {r['tick']}: after failures of {', '.join(r['failed'])}: {fixes}")
        lines.append("")
    if report["suggested_actions"]:
        lines += ["## Suggested actions", ""]
        lines += [f"- {s}" for s in report["suggested_actions"]]
        lines.append("")
    return "\n".join(lines)
