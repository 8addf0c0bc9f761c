"""``goalkeeper validate SPEC``: exit 0 valid, 1 invalid, 2 usage.

It accepts exactly what ``run`` accepts: a fact without an observer is an
error here too. Unset ``${VAR}`` references are warnings (the environment of
``validate`` may not be the one of the run).
"""

from __future__ import annotations

import os
import sys

import click

from ..errors import SpecError
from ..model.lint import lint
from ..model.loader import attach_lines, load_spec
from ..model.vars import unset_variables
from ._common import EXIT_ERROR, clean, echo_json, err_console, esc, handle_errors, out_console


@click.command("validate")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--strict", is_flag=True, help="Treat lint warnings as errors.")
@handle_errors
def command(spec_path: str, as_json: bool, strict: bool) -> None:
    """Check SPEC for schema errors and lint warnings."""
    try:
        spec = load_spec(spec_path)
    except SpecError as e:
        if as_json:
            echo_json({"valid": False, "spec": spec_path, "issues": [i.to_dict() for i in e.issues]})
        else:
            err_console.print(f"[bold red]invalid[/] {esc(spec_path)}", markup=True)
            for i in e.issues:
                err_console.print("  error: " + clean(i.format(spec_path)), markup=False)
        sys.exit(EXIT_ERROR)
    issues = lint(spec) + attach_lines(spec, unset_variables(spec, os.environ))
    errors = [i for i in issues if i.severity == "error" or strict]
    failing = {id(i) for i in errors}  # (not `i in errors`: quadratic on a 5,000-action spec)
    if as_json:
        echo_json(
            {"valid": not errors, "spec": spec_path, "name": spec.name, "issues": [i.to_dict() for i in issues]}
        )
    else:
        for i in issues:
            style = "red" if id(i) in failing else "yellow"
            con = err_console if id(i) in failing else out_console
            con.print(f"  [{style}]{i.severity}:[/] " + esc(i.format(spec_path)), markup=True)
        status = "[bold red]invalid[/]" if errors else "[bold green]valid[/]"
        (err_console if errors else out_console).print(
            f"{status} {esc(spec_path)}: {len(spec.facts)} facts, {len(spec.actions)} actions, "
            f"{sum(1 for i in issues if i.severity == 'warning')} warning(s)",
            markup=True,
        )
    sys.exit(EXIT_ERROR if errors else 0)
