"""``goalkeeper integrate claude-code --project DIR``: wire goalkeeper into one project's Claude Code settings.

Where the plugin (:mod:`.claude_plugin`) is a folder of goalkeeper's own,
this writes into files the user already owns, so it merges and never
clobbers:

* ``.mcp.json`` (project-scoped MCP servers, ``{"mcpServers": {name: {...}}}``):
  adds ``goalkeeper`` unless an entry of that name exists (left as it is).
* ``.claude/settings.json``: adds a Stop, SessionStart and SessionEnd hook
  group unless that event already runs ``... hook claude-code EVENT``; adds
  ``goalkeeper`` to ``enabledMcpjsonServers``. Every other key and hook stays.
* ``.claude/commands/{goal,goal-status,triage,heartbeat}.md``: written when
  absent or still carrying goalkeeper's mark; a file the user wrote (or
  unmarked) is kept.

Running it twice changes nothing. A file that is not the JSON Claude Code
reads is refused with its place (line, column, key) and left untouched.
Deciding what to change (:func:`merge_mcp`, :func:`merge_settings`) is pure.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..store.atomic import USER_FILE, write_text_atomic
from ._files import read_settings_file
from .claude_plugin import (
    MARK,
    PROJECT_TOOLS,
    SERVER_NAME,
    STOP_TIMEOUT,
    command_files,
    default_launcher,
    hook_table,
    mcp_server_entry,
)

__all__ = ["Change", "merge_mcp", "merge_settings", "write_claude_project"]


@dataclass(frozen=True, slots=True)
class Change:
    """One file ``integrate`` looked at: ``written``, ``updated``, ``unchanged`` or ``kept`` (the user's)."""

    path: Path
    action: str
    detail: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"path": str(self.path), "action": self.action, "detail": self.detail}


def _load(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, None when the file does not exist; ConfigError naming the place."""
    text = read_settings_file(path, "a Claude Code settings file", "move it away or point --project elsewhere")
    if text is None:
        return None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}); fix it first, the file was "
                          "left untouched") from None
    except (RecursionError, ValueError) as e:  # nesting past the parser's stack; an int past Python's digit cap
        why = "nested too deeply" if isinstance(e, RecursionError) else str(e)
        raise ConfigError(f"{path}: not JSON Claude Code reads ({why}); fix it first, the file was "
                          "left untouched") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: holds a JSON {type(data).__name__}, Claude Code reads an object; "
                          "left untouched")
    return data


def _object(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: {key} is a JSON {type(value).__name__}, Claude Code reads an object; "
                          "left untouched")
    return value


def merge_mcp(data: dict[str, Any], argv: Sequence[str], path: Path) -> str | None:
    """Add the goalkeeper server to a ``.mcp.json`` object in place; why not, when it is kept."""
    servers = _object(data, "mcpServers", path)
    if SERVER_NAME in servers:
        return f"mcpServers.{SERVER_NAME} already set; left as it is"
    servers[SERVER_NAME] = mcp_server_entry(argv)
    return None


def _runs(groups: Any, signature: str) -> bool:
    """Some hook in an event's groups already runs goalkeeper's hook for that event."""
    for group in groups if isinstance(groups, list) else []:
        for h in (group.get("hooks") if isinstance(group, dict) else None) or []:
            if isinstance(h, dict) and signature in str(h.get("command", "")):
                return True
    return False


def merge_settings(data: dict[str, Any], argv: Sequence[str], path: Path,
                   stop_timeout: int = STOP_TIMEOUT) -> list[str]:
    """Add goalkeeper's hooks and enable its MCP server in a ``settings.json`` object in place.

    Returns what was already there (one note per event kept).
    """
    hooks = _object(data, "hooks", path)
    kept = []
    for event, groups in hook_table(argv, stop_timeout).items():
        have = hooks.setdefault(event, [])
        if not isinstance(have, list):
            raise ConfigError(f"{path}: hooks.{event} is a JSON {type(have).__name__}, Claude Code reads a list "
                              "of hook groups; left untouched")
        arg = {"Stop": "stop", "SessionStart": "session-start", "SessionEnd": "session-end"}[event]
        if _runs(have, f"hook claude-code {arg}"):
            kept.append(f"hooks.{event} already runs goalkeeper")
            continue
        have.extend(groups)
    enabled = data.setdefault("enabledMcpjsonServers", [])
    if not isinstance(enabled, list):
        raise ConfigError(f"{path}: enabledMcpjsonServers is a JSON {type(enabled).__name__}, Claude Code reads a "
                          "list of server names; left untouched")
    if SERVER_NAME not in enabled:
        enabled.append(SERVER_NAME)
    return kept


def _write_json(path: Path, before: dict[str, Any] | None, after: dict[str, Any], detail: str) -> Change:
    if before == after:
        return Change(path, "unchanged", detail)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else USER_FILE
    write_text_atomic(path, json.dumps(after, indent=2) + "\n", mode=mode)
    return Change(path, "written" if before is None else "updated", detail)


def write_claude_project(project: str | Path, launcher: Sequence[str] | None = None,
                         stop_timeout: int = STOP_TIMEOUT) -> list[Change]:
    """Merge goalkeeper into ``project``'s Claude Code configuration; what happened to each file.

    Every file is read and checked before any is written, so a broken one
    leaves the whole project as it was.
    """
    root = Path(project)
    if not root.is_dir():
        raise ConfigError(f"--project {root}: no such folder; give the project's root")
    argv = list(launcher or default_launcher())
    mcp_path, settings_path = root / ".mcp.json", root / ".claude" / "settings.json"
    mcp_before, settings_before = _load(mcp_path), _load(settings_path)
    mcp_after = json.loads(json.dumps(mcp_before or {}))
    settings_after = json.loads(json.dumps(settings_before or {}))
    mcp_note = merge_mcp(mcp_after, argv, mcp_path) or ""
    settings_note = "; ".join(merge_settings(settings_after, argv, settings_path, stop_timeout))
    planned: list[tuple[Path, str, str]] = []  # (path, action, text or why it is kept)
    for name, text in command_files(shlex.join(argv), PROJECT_TOOLS).items():
        p = root / ".claude" / "commands" / name
        if p.is_symlink() or (p.exists() and not p.is_file()):
            planned.append((p, "kept", "not a regular file; left as it is"))
            continue
        old = p.read_text(encoding="utf-8", errors="replace") if p.exists() else None
        if old is None:
            planned.append((p, "written", text))
        elif old == text:
            planned.append((p, "unchanged", text))
        elif MARK in old:
            planned.append((p, "updated", text))
        else:
            planned.append((p, "kept", "your own command of that name (no goalkeeper mark); left as it is"))
    changes = [_write_json(mcp_path, mcp_before, mcp_after, mcp_note),
               _write_json(settings_path, settings_before, settings_after, settings_note)]
    for p, action, text in planned:
        if action in ("written", "updated"):
            p.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(p, text, mode=p.stat().st_mode & 0o777 if p.exists() else USER_FILE)
        changes.append(Change(p, action, text if action == "kept" else ""))
    return changes
