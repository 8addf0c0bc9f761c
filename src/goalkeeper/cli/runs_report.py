"""``goalkeeper runs report RUN_ID [-o FILE]``: a GOAP run as one self-contained HTML page.

Registered on the ``runs`` group by ``cli/__init__.py`` (EXTENSIONS).
"""

from __future__ import annotations

import click

from ..store.atomic import USER_FILE, write_text_atomic
from ._common import err_console, handle_errors, resolve
from .runs import command as runs_group

__all__ = ["report_cmd"]


@runs_group.command("report")
@click.argument("run_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the page here (default: stdout).")
@handle_errors
def report_cmd(run_id: str, output: str | None) -> None:
    """One HTML page: status, the plan graph (what ran, what is still planned), the tick timeline,
    facts and replans. No network needed to view it. Exit 0, or 1 on an error."""
    from ..report import run_report

    rid = resolve("run", run_id)
    text = run_report(rid)
    if output:
        write_text_atomic(output, text, mode=USER_FILE)
        err_console.print(f"wrote {output}", markup=False)
    else:
        click.echo(text, nl=False)
