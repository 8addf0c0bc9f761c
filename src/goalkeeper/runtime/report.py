"""Escalation reports: what a human needs to unblock a run, as JSON and Markdown."""

from __future__ import annotations

from typing import Any

from ..model.conditions import format_value
from ..model.spec import Spec
from ..planning.result import PlanResult
from .decide import Escalate
from .state import RunState

__all__ = ["build_report", "render_markdown"]


def _suggestions(spec: Spec, esc: Escalate, result: PlanResult | None) -> list[str]:
    out: list[str] = []
    if result is not None:
        for action, fact, cond, root in result.gaps():
            if root:
                out.append(
                    f"make `{fact} {cond}` hold (needed by `{action}`): fix it in the world, or add an "
                    f"action whose effects set `{fact}`"
                )
        for u in result.unreachable:
            if not u.setters:
                out.append(f"no action sets `{u.fact}`: add one, or correct the goal condition `{u.fact} {u.condition}`")
    if esc.reason == "tick_cap":
        out.append("raise policy.max_ticks only if the history shows steady progress")
    if esc.reason == "no_admissible_action":
        out.append(f"investigate why {', '.join(esc.blocked)} keeps failing (see the action logs), then resume")
    if esc.reason == "approval_required":
        out.append("re-run with --yes to approve destructive actions marked confirm: true")
    return out


def build_report(spec: Spec, state: RunState, esc: Escalate) -> dict[str, Any]:
    result = esc.result
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
        "unreachable": result.to_dict()["unreachable"] if result is not None else [],
        "gaps": result.to_dict()["gaps"] if result is not None else [],
        "blocked_actions": list(esc.blocked),
        "failures": [t.model_dump(mode="json") for t in state.history if t.outcome != "ok"],
        "replans": [r.model_dump(mode="json") for r in state.replans],
        "suggested_actions": _suggestions(spec, esc, result),
    }


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
