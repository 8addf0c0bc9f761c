"""``goalkeeper integrate claude-code``: a Claude Code plugin that puts goalkeeper inside the session.

The layout follows Claude Code's plugin format (as Anthropic's own plugins
ship it): ``.claude-plugin/plugin.json`` (the manifest; ``name`` is the only
required key), ``commands/*.md`` (slash commands: YAML front matter, then
the prompt; ``$ARGUMENTS`` and ``${CLAUDE_SESSION_ID}`` are substituted),
``hooks/hooks.json`` (``{"hooks": {EVENT: [{"matcher"?, "hooks": [{"type":
"command", "command", "timeout"}]}]}}``) and ``.mcp.json`` (server name ->
``{"command", "args"}``). Hook commands are run by a shell, so every part of
the launcher is quoted; nothing a user types reaches a shell from here.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from ..store.atomic import USER_FILE, write_text_atomic

__all__ = [
    "MARK",
    "PLUGIN_NAME",
    "PROJECT_TOOLS",
    "command_files",
    "default_launcher",
    "hook_command",
    "hook_table",
    "mcp_server_entry",
    "plugin_files",
    "write_claude_plugin",
]

PLUGIN_NAME = "goalkeeper"
SERVER_NAME = "goalkeeper"
STOP_TIMEOUT = 900  # seconds: the Stop hook runs the project's checks


def default_launcher() -> list[str]:
    """This interpreter running goalkeeper: works whatever PATH Claude Code starts hooks with."""
    return [sys.executable, "-m", "goalkeeper"]


PLUGIN_TOOLS = f"mcp__plugin_{PLUGIN_NAME}_{SERVER_NAME}__"  # how Claude Code names a plugin's MCP tools
PROJECT_TOOLS = f"mcp__{SERVER_NAME}__"  # ... and those of a project's .mcp.json server
MARK = "# written by `goalkeeper integrate`; rerun it to update, or delete this line to keep your edits"


def _front(description: str, hint: str | None, tools: Sequence[str]) -> str:
    lines = ["---", MARK, f"description: {json.dumps(description)}"]
    if hint:
        lines.append(f"argument-hint: {json.dumps(hint)}")
    if tools:
        lines.append("allowed-tools: " + json.dumps(list(tools)))
    return "\n".join(lines + ["---", ""])


_RULES = (
    "Never edit, delete or skip tests, and never touch test/lint/coverage configuration, CI files, ignore files "
    "or the `.goalkeeper` folder to make a check pass: goalkeeper seals them, rejects the iteration and reverts "
    "your changes. Fix the code under test instead."
)


def _goal_md(cli: str, tools: str) -> str:
    return _front("Start a goalkeeper goal: the session may stop only once its checks pass",
                  "OBJECTIVE [--until CMD]...", [tools + "goal_new", tools + "goal_status"]) + f"""
Start a goalkeeper goal for this session, then work on it.

The request: $ARGUMENTS

1. Pick the stopping conditions: commands that exit 0 exactly when the objective is met. If the request
   gives commands after `--until`, use exactly those. Otherwise use the project's own commands (read
   pyproject.toml, package.json, Makefile, the CI configuration), for example `python -m pytest -q` for
   "make the tests pass". Each command runs without a shell: no `&&`, pipes or redirections; give two
   commands instead of one joined with `&&`.
2. Call the `goal_new` tool of the goalkeeper MCP server with: `objective` = the request without its
   `--until` parts, `until` = the list of commands, `maker_type` = "host", `session` = "${{CLAUDE_SESSION_ID}}",
   `workspace` = the project's root directory.
   Without the MCP server, run this in the project root instead, quoting every argument:
   `{cli} goal new "OBJECTIVE" --maker-type host --session ${{CLAUDE_SESSION_ID}} --until "CMD"`
3. Tell the user the goal id and its stopping conditions, then work on the objective.

Each time you stop, goalkeeper's Stop hook runs the stopping conditions itself on the workspace as you
left it. While they fail it blocks the stop and tells you what is still failing and what to do next: do
that, then stop again. The session may end when the goal converges, or when goalkeeper escalates it (the
budget is spent, no progress, or tampering); then tell the user the triage item it names.

{_RULES}
"""


def _status_md(cli: str, tools: str) -> str:
    return _front("Show goalkeeper's open goals: state, iteration, spend, last hint", None,
                  [tools + "goal_list", tools + "goal_status", tools + "goal_logs"]) + f"""
Show the user goalkeeper's goals.

Call the `goal_list` tool of the goalkeeper MCP server with `active` = true (or run `{cli} goal list --active
--json`). For each goal, show one line: id, state, iteration k of N, dollars spent, the stopping conditions that
failed last and the last hint. If the user named a goal ($ARGUMENTS), call `goal_status` for it (and `goal_logs`
when they ask what the checks printed) and show the details.

Only report; change nothing.
"""


def _triage_md(cli: str, tools: str) -> str:
    return _front("Show goalkeeper's triage inbox: escalations waiting for a decision", None,
                  [tools + "triage_list", tools + "triage_show"]) + f"""
Show the user goalkeeper's triage inbox.

Call the `triage_list` tool of the goalkeeper MCP server with `status` = "pending" (or run `{cli} triage list
--status pending --json`). For each item show its id, severity, reason and summary. If the user named an item
($ARGUMENTS), call `triage_show` for it and show its report and suggested actions.

Do not act on, dismiss or defer an item yourself: those are the user's decisions
(`{cli} triage act|dismiss|defer ID`).
"""


def _heartbeat_md(cli: str, tools: str) -> str:
    return _front("Run goalkeeper's heartbeat scans once", "[CONFIG]", [f"Bash({cli} heartbeat:*)"]) + f"""
Run goalkeeper's heartbeat scans once and report what they found.

The heartbeat configuration is the file the user named ($ARGUMENTS), else `heartbeat.yaml` in the project root.
If there is no such file, say so and stop. Otherwise run, in the project root, with the path quoted:

`{cli} heartbeat "CONFIG" --json`

It prints one JSON line per scan: whether it passed, and the triage item or goal it filed when it failed. Exit
code 0: every scan passed; 3: a scan failed. Summarise the results for the user; change nothing else.
"""


def hook_command(argv: Sequence[str], event: str) -> str:
    """The shell command Claude Code runs for ``event`` (every part quoted)."""
    return shlex.join([*argv, "hook", "claude-code", event])


def hook_table(argv: Sequence[str], stop_timeout: int = STOP_TIMEOUT) -> dict[str, list[dict[str, Any]]]:
    """Claude Code's ``hooks`` table: Stop, SessionStart and SessionEnd wired to goalkeeper."""
    def hook(event: str, timeout: int) -> dict[str, Any]:
        return {"type": "command", "command": hook_command(argv, event), "timeout": timeout}

    return {
        "Stop": [{"hooks": [hook("stop", stop_timeout)]}],
        "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [hook("session-start", 60)]}],
        "SessionEnd": [{"hooks": [hook("session-end", 60)]}],
    }


def mcp_server_entry(argv: Sequence[str]) -> dict[str, Any]:
    return {"command": argv[0], "args": [*argv[1:], "mcp"]}


def command_files(cli: str, tools: str) -> dict[str, str]:
    """The slash commands, by file name; ``tools`` is the prefix of the MCP tool names they may call."""
    return {"goal.md": _goal_md(cli, tools), "goal-status.md": _status_md(cli, tools),
            "triage.md": _triage_md(cli, tools), "heartbeat.md": _heartbeat_md(cli, tools)}


def plugin_files(launcher: Sequence[str] | None = None, stop_timeout: int = STOP_TIMEOUT) -> dict[str, str]:
    """Every file of the plugin: relative path -> text."""
    argv = list(launcher or default_launcher())
    cli = shlex.join(argv)

    manifest = {
        "name": PLUGIN_NAME,
        "version": __version__,
        "description": "Goals that end only when goalkeeper's own sealed checks pass: /goal starts one, a Stop "
                       "hook blocks until its checks pass, escalations go to a triage inbox.",
        "author": {"name": "goalkeeper"},
        "license": "MIT",
        "keywords": ["goals", "tests", "verification", "stop-hook", "triage"],
    }
    hooks = {
        "description": "goalkeeper: judge the work at every stop, announce open goals, flush state at the end",
        "hooks": hook_table(argv, stop_timeout),
    }
    mcp = {SERVER_NAME: mcp_server_entry(argv)}
    return {
        ".claude-plugin/plugin.json": json.dumps(manifest, indent=2) + "\n",
        "hooks/hooks.json": json.dumps(hooks, indent=2) + "\n",
        ".mcp.json": json.dumps(mcp, indent=2) + "\n",
        **{f"commands/{name}": text for name, text in command_files(cli, PLUGIN_TOOLS).items()},
    }


def write_claude_plugin(out_dir: str | Path, launcher: Sequence[str] | None = None,
                        stop_timeout: int = STOP_TIMEOUT) -> list[Path]:
    """Write the plugin into ``out_dir`` (created; goalkeeper's own files in it are replaced)."""
    root = Path(out_dir)
    written = []
    for rel, text in sorted(plugin_files(launcher, stop_timeout).items()):
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(p, text, mode=USER_FILE)
        written.append(p)
    return written
