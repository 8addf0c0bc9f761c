"""``goalkeeper run SPEC``: exit 0 goal reached, 3 escalated, 1 error, 2 usage."""

from __future__ import annotations

import sys

import click

from ..runtime.driver import RunOptions, resume_run, start_run
from ..runtime.progress import json_reporter, rich_reporter
from ._common import EXIT_ESCALATED, EXIT_OK, EXIT_USAGE, fail, handle_errors, out_console


@click.command("run")
@click.argument("spec_path", metavar="SPEC", required=False, type=click.Path(dir_okay=False))
@click.option("--max-ticks", type=click.IntRange(min=1), default=None, help="Override policy.max_ticks.")
@click.option("--yes", is_flag=True, help="Approve destructive actions marked confirm: true.")
@click.option("--json", "as_json", is_flag=True, help="Stream one JSON object per event.")
@click.option("--resume", "resume_id", metavar="RUN_ID", default=None, help="Continue a run from its last completed step.")
@click.option("--search", default="astar", show_default=True, help="Planner search: astar, regression, greedy.")
@handle_errors
def command(spec_path: str | None, max_ticks: int | None, yes: bool, as_json: bool,
            resume_id: str | None, search: str) -> None:
    """Observe, plan, act one action per tick, replan after strikes, escalate when stuck."""
    if spec_path is None and resume_id is None:
        fail("give a SPEC to run, or --resume RUN_ID", EXIT_USAGE)
    interactive = sys.stdin.isatty() and not as_json
    opts = RunOptions(
        search=search,
        max_ticks=max_ticks,
        yes=yes,
        confirm=(lambda a: click.confirm(f"run destructive action {a}?", default=False)) if interactive else None,
        reporter=json_reporter if as_json else rich_reporter(out_console),
    )
    state = resume_run(resume_id, opts, spec_path) if resume_id else start_run(spec_path or "", opts)
    sys.exit(EXIT_OK if state.status == "reached" else EXIT_ESCALATED)
