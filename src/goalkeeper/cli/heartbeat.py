"""``goalkeeper heartbeat CONFIG``: run scans once or every N minutes.

Exit code (single run): 0 every scan passed, 3 a scan failed (an item was filed,
a goal was created, or one was already pending), 1 error.
"""

from __future__ import annotations

import sys
import time

import click

from ..convergence.goal import parse_duration
from ..convergence.heartbeat import ScanOutcome, load_config, run_heartbeat
from ._common import EXIT_ESCALATED, EXIT_OK, echo_json, handle_errors, out_console

__all__ = ["command"]


def _show(outcomes: list[ScanOutcome], as_json: bool) -> None:
    for o in outcomes:
        if as_json:
            echo_json(o.to_dict())
            continue
        mark = "[green]✔[/]" if o.passed else "[red]✘[/]"
        extra = f" -> triage {o.triage_id}" if o.triage_id else ""
        extra += f" -> goal {o.goal_id} ({o.goal_state})" if o.goal_id else ""
        out_console.print(f"{mark} {o.scan}: {o.action}: {o.summary.replace('[', chr(92) + '[')}{extra}")


@click.command("heartbeat")
@click.argument("config", type=click.Path(dir_okay=False, exists=True))
@click.option("--every", help="Repeat every interval ('30m', '1h'); default: run once.")
@click.option("--times", type=int, help="With --every: stop after this many rounds.")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per scan outcome.")
@handle_errors
def command(config: str, every: str | None, times: int | None, as_json: bool) -> None:
    """Run the scans in CONFIG; failures become triage items or goals (per hour dollar cap)."""
    cfg, ws = load_config(config)
    interval = parse_duration(every) if every else None
    rounds = 0
    while True:
        outcomes = run_heartbeat(cfg, ws)
        _show(outcomes, as_json)
        rounds += 1
        if interval is None or (times is not None and rounds >= times):
            break
        time.sleep(interval)
    sys.exit(EXIT_OK if all(o.passed for o in outcomes) else EXIT_ESCALATED)
