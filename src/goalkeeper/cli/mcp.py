"""``goalkeeper mcp``: serve goalkeeper's tools to an agent over MCP (stdio).

Needs the optional extra: ``pip install 'goalkeeper[mcp]'``. Tools: validate,
plan, observe, build, goal_new, goal_check, goal_status, goal_list, goal_logs,
triage_list, triage_show (see docs/agents.md).
"""

from __future__ import annotations

import os

import click

from ._common import handle_errors

__all__ = ["command"]


@click.command("mcp")
@click.option("--workdir", type=click.Path(file_okay=False, exists=True), envvar="CLAUDE_PROJECT_DIR",
              help="Work from here: relative spec paths, the default workspace of new goals and the state "
                   "home are found from it (default: $CLAUDE_PROJECT_DIR when Claude Code starts the server, "
                   "else the current directory).")
@handle_errors
def command(workdir: str | None) -> None:
    """Serve goalkeeper's tools over MCP on stdin/stdout until the client disconnects."""
    from ..integrations.mcp_server import build_server

    server = build_server()  # before chdir: a missing extra is reported with nothing changed
    if workdir:
        os.chdir(workdir)
    server.run("stdio")
