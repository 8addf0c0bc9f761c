"""``goalkeeper schema spec|goal``: print a JSON Schema."""

from __future__ import annotations

import click

from ..model.schema import packaged_schema


@click.command("schema")
@click.argument("which", type=click.Choice(["spec", "goal"]), default="spec")
def command(which: str) -> None:
    """Print the JSON Schema of the spec (default) or goal format."""
    click.echo(packaged_schema(which), nl=False)
