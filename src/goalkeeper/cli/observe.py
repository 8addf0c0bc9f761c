"""``goalkeeper observe SPEC [--check]``: read every fact from the world, now.

With ``--check`` it is a verifier: exit 0 only if the goal holds on observed
values (4 when it does not hold yet, 1 on an error such as a broken spec), which
makes it a stopping condition no agent can talk its way past.
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
from ..model.spec import Spec
from ..runtime.decide import goal_holds
from ..runtime.observers import Observation, ObserveContext, observe_all
from ._common import EXIT_NOT_DONE, echo_json, handle_errors, out_console

__all__ = ["command", "observe_every_fact", "observed_json"]


def observe_every_fact(spec: Spec, spec_path: str) -> dict[str, Observation]:
    """Every fact of ``spec`` (diagnostic ones too), read from the world now, next to the spec."""
    require_runnable(spec)
    base = Path(spec_path).resolve().parent
    return observe_all(spec, list(spec.facts), ObserveContext(base_dir=base, env=dict(os.environ),
                                                              timeout=spec.policy.observe_timeout))


def observed_json(obs: dict[str, Observation]) -> dict[str, dict[str, object]]:
    return {f: {"value": o.value, "error": o.error, "detail": o.detail} for f, o in obs.items()}


def observed_table(obs: dict[str, Observation]) -> Table:
    table = Table("fact", "value", "observer said")
    for f, o in obs.items():
        table.add_row(escape(f), escape(format_value(o.value)), escape(o.error or o.detail))
    return table


@click.command("observe")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@click.option("--check", is_flag=True,
              help="Exit 0 only if the goal holds on observed values (4 if it does not hold yet).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handle_errors
def command(spec_path: str, check: bool, as_json: bool) -> None:
    """Observe every fact of SPEC (diagnostic ones too) and evaluate the goal."""
    spec = load_spec(spec_path)
    obs = observe_every_fact(spec, spec_path)
    facts = {f: o.value for f, o in obs.items()}
    holds = goal_holds(spec, facts)
    unmet = [str(c) for c in spec.goal_conditions if not c.holds(facts.get(c.fact))]
    if as_json:
        echo_json({"goalHolds": holds, "unmet": unmet, "facts": observed_json(obs)})
    else:
        out_console.print(observed_table(obs))
        out_console.print("[bold green]goal holds[/]" if holds
                          else f"[bold red]goal does not hold[/]: {escape(', '.join(unmet))}")
    if check and not holds:
        sys.exit(EXIT_NOT_DONE)
