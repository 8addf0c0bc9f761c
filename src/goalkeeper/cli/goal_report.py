"""``goalkeeper goal report ID [-o FILE]``: the goal as one self-contained HTML page.

Registered on the ``goal`` group by ``cli/__init__.py`` (EXTENSIONS), so the
group's own module does not grow with every view of a goal.
"""

from __future__ import annotations

import click

from ..store.atomic import USER_FILE, write_text_atomic
from ._common import err_console, handle_errors, resolve
from .goal import command as goal_group

__all__ = ["report_cmd"]


@goal_group.command("report")
@click.argument("goal_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the page here (default: stdout).")
@handle_errors
def report_cmd(goal_id: str, output: str | None) -> None:
    """One HTML page: outcome, iteration timeline (maker, checks, oracle), cost per iteration, the
    conditions' results and diff stats. No network needed to view it. Exit 0, or 1 on an error."""
    from ..report import goal_report

    gid = resolve("goal", goal_id)
    text = goal_report(gid)
    if output:
        write_text_atomic(output, text, mode=USER_FILE)
        err_console.print(f"wrote {output}", markup=False)
    else:
        click.echo(text, nl=False)
