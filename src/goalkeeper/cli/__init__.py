"""The ``goalkeeper`` command. One module per command group, loaded on demand.

Exit codes, the same for every command (docs/cli.md has the table per command):
0 done (converged, reached, valid, plan found), 1 error, 2 usage error,
3 escalated or unreachable (a human must look at the triage inbox),
4 not done yet (paused, the goal does not hold yet, not converged yet).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import click

from .. import __version__

__all__ = ["main"]

# command name -> module under goalkeeper.cli exposing ``command``
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("validate", "Check a spec: schema errors and lint warnings."),
    "plan": ("plan", "Plan from a state to the spec's goal."),
    "schema": ("schema", "Print the JSON Schema of the spec or goal format."),
    "observe": ("observe", "Observe every fact now; --check exits 0 only if the goal holds."),
    "run": ("run", "Run a spec: observe, plan, act one action per tick, replan, escalate."),
    "runs": ("runs", "List and show runs."),
    "triage": ("triage", "The triage inbox of escalations."),
    "build": ("build", "Emit the agent SPEC document and a runtime deliverable."),
    "new": ("new", "Scaffold a new spec, interactively or from answers."),
    "goal": ("goal", "Goal convergence: maker iterates, conditions and oracle judge."),
    "heartbeat": ("heartbeat", "Run scan commands and file triage items or goals."),
    "worker": ("worker", "Run a worker for a scale-out engine (Temporal)."),
    "mcp": ("mcp", "Serve goalkeeper's tools to an agent over MCP (stdio)."),
    "hook": ("hook", "Hook commands for coding-agent hosts (Claude Code)."),
    "integrate": ("integrate", "Write the Claude Code plugin or the Codex skill that wires goalkeeper in."),
    "doctor": ("doctor", "Find what would fail before it runs (a spec, a goal, or this machine)."),
}
# group name -> modules that add subcommands to that group (imported after the group's own module)
EXTENSIONS: dict[str, tuple[str, ...]] = {
    "goal": ("goal_view", "goal_logs", "goal_edit", "goal_house", "goal_report"),
    "runs": ("runs_report",),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [n for n, (mod, _) in COMMANDS.items() if _available(mod)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None or not _available(entry[0]):
            return None
        mod = importlib.import_module(f"goalkeeper.cli.{entry[0]}")
        for ext in EXTENSIONS.get(cmd_name, ()):
            if _available(ext):
                importlib.import_module(f"goalkeeper.cli.{ext}")
        cmd: click.Command = mod.command
        return cmd


def _available(mod: str) -> bool:
    return importlib.util.find_spec(f"goalkeeper.cli.{mod}") is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="goalkeeper")
def cli() -> None:
    """goalkeeper: goal-driven agents that do not lie about being done."""


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="goalkeeper")
