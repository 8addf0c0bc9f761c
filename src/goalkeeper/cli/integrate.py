"""``goalkeeper integrate claude-code|codex``: write the files that put goalkeeper inside an agent.

``claude-code`` writes a plugin (manifest, /goal /goal-status /triage /heartbeat
commands, Stop/SessionStart/SessionEnd hooks, the MCP server); load it with
``claude --plugin-dir DIR``; with ``--project DIR`` it merges the same hooks, MCP
server and commands into that project's ``.claude/settings.json``, ``.mcp.json``
and ``.claude/commands/`` instead, keeping everything the user has there. ``codex`` writes a skill folder and the
``[mcp_servers.goalkeeper]`` table for Codex's ``config.toml``.
"""

from __future__ import annotations

import shlex

import click

from ._common import echo_json, handle_errors, out_console
from ._common import esc as _esc

__all__ = ["command"]


def _launcher(text: str | None) -> list[str] | None:
    if not text:
        return None
    try:
        argv = shlex.split(text)
    except ValueError as e:
        raise click.BadParameter(f"cannot split {text!r} into arguments: {e}", param_hint="--launcher") from None
    if not argv:
        raise click.BadParameter("must name a program, e.g. 'goalkeeper'", param_hint="--launcher")
    return argv


_LAUNCHER = click.option(
    "--launcher", metavar="CMD",
    help="How the agent starts goalkeeper (default: this Python interpreter with -m goalkeeper, so hooks "
         "work whatever PATH the agent has); e.g. --launcher goalkeeper to use the one on PATH.")


@click.group("integrate")
def command() -> None:
    """Write the plugin or skill that wires goalkeeper into a coding agent."""


@command.command("claude-code")
@click.option("--dir", "out_dir", type=click.Path(file_okay=False), default="goalkeeper-claude-plugin",
              show_default=True, help="Plugin folder to write (created; goalkeeper's files in it are replaced).")
@click.option("--project", "project", type=click.Path(file_okay=False), metavar="DIR",
              help="Instead of a plugin, merge the hooks, the MCP server and the commands into this project's "
                   ".claude/settings.json, .mcp.json and .claude/commands/ (your settings are kept; rerunning "
                   "changes nothing).")
@_LAUNCHER
@click.option("--stop-timeout", type=click.IntRange(min=10), default=900, show_default=True,
              help="Seconds Claude Code lets the Stop hook run (it runs the project's checks).")
@click.option("--json", "as_json", is_flag=True, help="Print the files written as one JSON object.")
@handle_errors
def claude_code_cmd(out_dir: str, project: str | None, launcher: str | None, stop_timeout: int,
                    as_json: bool) -> None:
    """A Claude Code plugin: /goal and friends, a Stop hook that blocks until the checks pass, the MCP server."""
    from ..integrations.claude_plugin import write_claude_plugin

    if project is not None:
        source = click.get_current_context().get_parameter_source("out_dir")
        if source is not None and source.name == "COMMANDLINE":
            raise click.UsageError("give --dir (write a plugin) or --project (merge into a project), not both")
        _project(project, _launcher(launcher), stop_timeout, as_json)
        return

    written = write_claude_plugin(out_dir, _launcher(launcher), stop_timeout)
    if as_json:
        echo_json({"target": "claude-code", "dir": out_dir, "files": [str(p) for p in written]})
        return
    for p in written:
        out_console.print(f"  wrote {_esc(p)}")
    out_console.print(f"Claude Code plugin in {_esc(out_dir)}: start Claude Code with "
                      f"`claude --plugin-dir {_esc(shlex.quote(out_dir))}`, then `/goal make the tests pass`. "
                      "See docs/agents.md.")


def _project(project: str, argv: list[str] | None, stop_timeout: int, as_json: bool) -> None:
    from ..integrations.claude_project import write_claude_project

    changes = write_claude_project(project, argv, stop_timeout)
    if as_json:
        echo_json({"target": "claude-code", "project": project, "changes": [c.to_dict() for c in changes]})
        return
    for c in changes:
        out_console.print(f"  {c.action:<9} {_esc(c.path)}" + (f"  ({_esc(c.detail)})" if c.detail else ""))
    out_console.print(f"goalkeeper is wired into {_esc(project)}: start `claude` there (approve the goalkeeper MCP "
                      "server if asked), then `/goal make the tests pass`. See docs/agents.md.")


@command.command("codex")
@click.option("--dir", "out_dir", type=click.Path(file_okay=False), default=".agents/skills", show_default=True,
              help="Skills folder: the skill is written to DIR/goalkeeper/ (Codex reads .agents/skills in a "
                   "repository, ~/.agents/skills for you).")
@_LAUNCHER
@click.option("--codex-config", type=click.Path(dir_okay=False), metavar="CONFIG.toml",
              help="Also add [mcp_servers.goalkeeper] to this Codex config (e.g. ~/.codex/config.toml); an "
                   "existing entry is left as it is.")
@click.option("--tool-timeout", type=click.IntRange(min=10), default=900, show_default=True,
              help="Seconds Codex waits for a tool call (goal_check runs the project's checks).")
@click.option("--json", "as_json", is_flag=True, help="Print the files written as one JSON object.")
@handle_errors
def codex_cmd(out_dir: str, launcher: str | None, codex_config: str | None, tool_timeout: int,
              as_json: bool) -> None:
    """A Codex skill (SKILL.md) and the MCP server entry for Codex's config.toml."""
    from ..integrations.codex_skill import merge_codex_config, write_codex_skill

    argv = _launcher(launcher)
    written = write_codex_skill(out_dir, argv, tool_timeout)
    merged = merge_codex_config(codex_config, argv, tool_timeout) if codex_config else None
    if as_json:
        echo_json({"target": "codex", "dir": out_dir, "files": [str(p) for p in written],
                   "codexConfig": codex_config, "configUpdated": merged})
        return
    for p in written:
        out_console.print(f"  wrote {_esc(p)}")
    if codex_config:
        out_console.print(f"  {_esc('added [mcp_servers.goalkeeper] to') if merged else 'kept the existing entry in'} "
                          f"{_esc(codex_config)}")
    else:
        snippet = next(p for p in written if p.suffix == ".toml")
        out_console.print(f"Add {_esc(snippet)} to "
                          "~/.codex/config.toml (or .codex/config.toml in a trusted project), or rerun with "
                          "--codex-config ~/.codex/config.toml.")
    out_console.print("Then ask Codex to use the goalkeeper skill ($goalkeeper) for a goal. See docs/agents.md.")
