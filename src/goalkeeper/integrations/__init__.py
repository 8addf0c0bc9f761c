"""goalkeeper inside coding agents: an MCP server, Claude Code hooks, a plugin and a Codex skill.

* :func:`build_server` / ``goalkeeper mcp``: every tool over MCP (stdio); optional extra ``mcp``.
* :func:`handle_hook` / ``goalkeeper hook claude-code EVENT``: the Stop, SessionStart and
  SessionEnd hooks, reading Claude Code's hook JSON and answering in its format.
* :func:`write_claude_plugin`, :func:`write_codex_skill` / ``goalkeeper integrate``: the
  files that wire those into Claude Code and Codex.
"""

from .claude_plugin import write_claude_plugin
from .codex_skill import write_codex_skill
from .hooks import HookReply, handle_hook
from .mcp_server import build_server, serve

__all__ = ["HookReply", "build_server", "handle_hook", "serve", "write_claude_plugin", "write_codex_skill"]
