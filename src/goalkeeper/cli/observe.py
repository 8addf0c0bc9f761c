"""``goalkeeper observe SPEC [--check]``: read every fact from the world, now.

With ``--check`` it is a verifier: exit 0 only if the goal holds on observed
values, which makes it a stopping condition no agent can talk its way past.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from ..model.conditions import format_value
from ..model.lint import require_runnable
from ..model.loader import load_spec
from ..runtime.decide import goal_holds
from ..runtime.observers import ObserveContext, observe_all
from ._common import EXIT_ERROR, echo_json, handle_errors, out_console


@click.command("observe")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@click.option("--check", is_flag=True, help="Exit 0 only if the goal holds on observed values.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handle_errors
def command(spec_path: str, check: bool, as_json: bool) -> None:
    """Observe every fact of SPEC (diagnostic ones too) and evaluate the goal."""
    spec = load_spec(spec_path)
    require_runnable(spec)
    base = Path(spec_path).resolve().parent
    obs = observe_all(spec, list(spec.facts), ObserveContext(base_dir=base, env=dict(os.environ),
                                                             timeout=spec.policy.observe_timeout))
    facts = {f: o.value for f, o in obs.items()}
    holds = goal_holds(spec, facts)
    unmet = [str(c) for c in spec.goal_conditions if not c.holds(facts.get(c.fact))]
    if as_json:
        echo_json({
            "goal_holds": holds,
            "unmet": unmet,
            "facts": {f: {"value": o.value, "error": o.error, "detail": o.detail} for f, o in obs.items()},
        })
    else:
        table = Table("fact", "value", "observer said")
        for f, o in obs.items():
            table.add_row(escape(f), escape(format_value(o.value)), escape(o.error or o.detail))
        out_console.print(table)
        out_console.print("[bold green]goal holds[/]" if holds
                          else f"[bold red]goal does not hold[/]: {escape(', '.join(unmet))}")
    if check and not holds:
        sys.exit(EXIT_ERROR)
