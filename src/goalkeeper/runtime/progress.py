"""How a run reports itself: readable lines (rich) or one JSON object per event."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..model.conditions import format_value

__all__ = ["Reporter", "json_reporter", "null_reporter", "rich_reporter"]

Reporter = Callable[[dict[str, Any]], None]


def null_reporter(event: dict[str, Any]) -> None:
    return None


def json_reporter(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event, default=str) + "\n")
    sys.stdout.flush()


def _facts(d: dict[str, Any]) -> str:
    return ", ".join(f"{k}={format_value(v)}" for k, v in d.items())


def rich_reporter(console: Console | None = None) -> Reporter:
    con = console or Console(highlight=False)

    def report(ev: dict[str, Any]) -> None:
        kind = ev["event"]
        e = escape
        if kind in ("run.started", "run.resumed"):
            word = "resumed" if kind == "run.resumed" else "run"
            con.print(f"[bold]{word}[/] {ev['runId']} · spec {e(str(ev.get('spec', '')))}")
        elif kind == "spec.changed":
            con.print("[yellow]spec changed since the last step[/]: blocked actions may run again")
        elif kind == "run.reconciled":
            con.print(f"[yellow]the event log lacked {len(ev['history'])} step(s) the state held; "
                      "written back[/]")
        elif kind == "facts.observed":
            con.print(f"  [dim]observed[/] {e(_facts(ev['facts']))}")
            for f, why in (ev.get("unknown") or {}).items():
                con.print(f"    [yellow]{e(f)} unknown[/]: {e(str(why))}")
        elif kind == "plan.made":
            con.print(f"  [cyan]plan[/] {e(' → '.join(ev['plan']))} (cost {format_value(ev['cost'])})")
        elif kind == "tick.started":
            con.print(f"[bold]tick {ev['tick']}[/] ▶ {e(ev['action'])}")
        elif kind == "action.finished" and ev["outcome"] == "ok":
            con.print(f"  [green]✓ {e(ev['action'])}[/] {e(ev['reason'])}")
        elif kind == "action.finished":
            con.print(f"  [red]✗ {e(ev['action'])}[/] {e(ev['reason'])} · strike {ev['strikes']}/{ev['limit']}")
        elif kind == "action.refused":
            con.print(f"  [red]refused {e(ev['action'])}[/]: {e(ev['reason'])} · strike {ev['strikes']}/{ev['limit']}")
        elif kind == "action.interrupted":
            con.print(f"  [yellow]tick {ev['tick']} ({e(ev['action'])}) was interrupted; re-observing[/]")
        elif kind == "run.replanned":
            failed = ", ".join(ev["failed"]) or "failed proposals"
            con.print(f"[magenta]replan[/] after {e(failed)} hit the strike limit")
            for c in ev["corrections"]:
                con.print(
                    f"    {e(c['fact'])}: believed {format_value(c['believed'])}, observed {format_value(c['observed'])}"
                )
            if not ev["corrections"]:
                con.print("    no belief turned out wrong")
        elif kind == "run.reached":
            con.print(f"[bold green]goal reached[/] in {ev['tick']} tick(s)")
        elif kind == "run.escalated":
            con.print(f"[bold red]escalated[/] ({ev['reason']}): {e(ev['message'])}")
            for g in ev.get("gaps", []):
                root = " (root: no available action sets it)" if g.get("root") else ""
                con.print(f"    gap: {e(g['action'])} needs {e(g['fact'])} {e(g['condition'])}{root}")
            con.print(f"    triage item {ev['triageId']} · report {e(str(ev['report']))}")

    return report
