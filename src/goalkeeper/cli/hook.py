"""``goalkeeper hook claude-code stop|session-start|session-end``: Claude Code's hook commands.

Reads Claude Code's hook JSON on stdin and answers on stdout in its format
(see ``goalkeeper.integrations.hooks``). Always exits 0: a Stop hook blocks
by printing ``{"decision": "block", ...}``, never by failing, and a broken
input or an internal error lets the session stop, with a message.
"""

from __future__ import annotations

import sys

import click

from ..integrations.hooks import EVENTS, MAX_INPUT

__all__ = ["command"]


@click.group("hook")
def command() -> None:
    """Hook commands for coding-agent hosts (wired by `goalkeeper integrate`)."""


@command.command("claude-code")
@click.argument("event", type=click.Choice(EVENTS))
def claude_code(event: str) -> None:
    """Answer one Claude Code hook EVENT: stop, session-start or session-end (hook JSON on stdin)."""
    from ..integrations.hooks import HookReply, handle_hook

    try:
        raw = b"" if sys.stdin.isatty() else sys.stdin.buffer.read(MAX_INPUT + 1)
    except (OSError, ValueError):
        raw = b""
    try:
        reply = handle_hook(event, raw)
    except Exception as e:  # last line of defence: the session must be able to stop
        reply = HookReply({"systemMessage": f"goalkeeper {event} hook failed: {type(e).__name__}: {e}"})
    text = reply.text()
    if text:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    sys.exit(reply.exit_code)
