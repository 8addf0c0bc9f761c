"""``goalkeeper integrate codex``: a Codex skill folder and the MCP server entry for Codex's config.

A Codex skill is a folder with a ``SKILL.md``: YAML front matter with
``name`` (lower-case letters, digits and hyphens, the folder's name) and
``description`` (what it does and when to use it: Codex picks skills by
it), then the instructions. Codex finds repository skills in
``.agents/skills/<name>/`` and personal ones in ``~/.agents/skills/``. MCP
servers live in ``config.toml`` (``~/.codex/config.toml``, or
``.codex/config.toml`` in a trusted project) as ``[mcp_servers.<name>]``
tables with ``command``, ``args`` and optional timeouts.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..store.atomic import USER_FILE, write_text_atomic
from ._files import read_settings_file
from .claude_plugin import default_launcher

__all__ = ["SKILL_NAME", "codex_config_snippet", "merge_codex_config", "skill_files", "write_codex_skill"]

SKILL_NAME = "goalkeeper"
SNIPPET_NAME = "codex-mcp.toml"


def codex_config_snippet(launcher: Sequence[str] | None = None, tool_timeout: int = 900) -> str:
    """The ``[mcp_servers.goalkeeper]`` table (TOML strings written as JSON strings, which TOML reads alike)."""
    argv = list(launcher or default_launcher())
    args = ", ".join(json.dumps(a) for a in [*argv[1:], "mcp"])
    return (
        "# goalkeeper's MCP server (tools: goal_new, goal_check, goal_status, triage_list, ...)\n"
        "[mcp_servers.goalkeeper]\n"
        f"command = {json.dumps(argv[0])}\n"
        f"args = [{args}]\n"
        "startup_timeout_sec = 30\n"
        "# goal_check runs the project's stopping conditions: give it as long as the tests take\n"
        f"tool_timeout_sec = {int(tool_timeout)}\n"
    )


def _skill_md(cli: str) -> str:
    description = (
        "Work on a coding goal until goalkeeper's own sealed checks pass, instead of deciding yourself "
        "that you are done. Use when the user asks to make the tests pass, fix lint errors, reach a "
        "coverage threshold or any task with a command that proves it done, or mentions goalkeeper, "
        "/goal or a goal id (goal-xxxxxxxx)."
    )
    return f"""---
name: {SKILL_NAME}
description: {json.dumps(description)}
---

# Working on a goalkeeper goal

goalkeeper decides when a goal is done: it runs the stopping conditions itself, on a sealed copy of the
workspace, and a separate judge agrees. You are the maker (a "host" goal): you do the work, goalkeeper
checks it. Use the tools of the `goalkeeper` MCP server; each has a CLI equivalent.

## Start

1. Choose the stopping conditions: commands that exit 0 exactly when the objective is met. Use the ones
   the user gave; otherwise the project's own (read pyproject.toml, package.json, Makefile, the CI
   configuration), e.g. `python -m pytest -q` for "make the tests pass". They run without a shell: no
   `&&`, pipes or redirections (give two commands instead).
2. Call `goal_new` with `objective`, `until` (the list of commands) and `maker_type` = "host"
   (`workspace` defaults to the server's working directory). Tell the user the goal id.
   CLI: `{cli} goal new "OBJECTIVE" --maker-type host --until "CMD"`

## Loop

3. Work on the objective.
4. Call `goal_check` with the goal id (CLI: `{cli} goal check ID --json`; exit 0 converged, 4 not yet,
   3 escalated). Read the result:
   - `state` "active": not done. `failing` names the checks that fail, `findings` the changes that were
     rejected (and reverted), `nextHint` what to do. Go back to step 3.
   - `state` "converged": done. Tell the user and stop.
   - `state` "escalated": stop working on it. Tell the user the `reason` and the triage item
     `triageId` (`{cli} triage show ID`): a human decides what happens next.

Every `goal_check` spends one iteration of the goal's budget, so check when you believe the work is
done, not after every edit.

## Rules

- Never edit, delete or skip tests, and never touch test/lint/coverage configuration, CI files, ignore
  files or the `.goalkeeper` folder to make a check pass: goalkeeper seals them, rejects the iteration
  and reverts your changes. Fix the code under test.
- Do not report the goal as done until `goal_check` says `converged`.
- `goal_status` and `goal_list` show where a goal stands; `triage_list` shows the escalations waiting.
"""


def skill_files(launcher: Sequence[str] | None = None, tool_timeout: int = 900) -> dict[str, str]:
    """The skill folder's files, relative to the skills directory."""
    cli = shlex.join(list(launcher or default_launcher()))
    return {
        f"{SKILL_NAME}/SKILL.md": _skill_md(cli),
        f"{SKILL_NAME}/{SNIPPET_NAME}": codex_config_snippet(launcher, tool_timeout),
    }


def merge_codex_config(config: str | Path, launcher: Sequence[str] | None = None,
                       tool_timeout: int = 900) -> bool:
    """Append the server table to a Codex ``config.toml``; False when it already has one (left untouched)."""
    import tomllib

    path = Path(config)
    fix = "fix it, or pass --codex-config a regular file"
    existing = read_settings_file(path, "a Codex config.toml", fix)
    text = existing or ""
    data = _toml(text, path)
    servers = data.get("mcp_servers")
    if servers is not None and not isinstance(servers, dict):
        kind = "an array of tables ([[mcp_servers]])" if isinstance(servers, list) else f"a {type(servers).__name__}"
        raise ConfigError(f"{path}: mcp_servers is {kind}; Codex reads a table of servers "
                          "([mcp_servers.NAME]); fix it first, the file was left untouched")
    if isinstance(servers, dict) and SKILL_NAME in servers:
        return False
    sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    merged = text + sep + codex_config_snippet(launcher, tool_timeout)
    try:  # never write a file Codex could not read, or one where the table landed somewhere else
        table = tomllib.loads(merged).get("mcp_servers", {}).get(SKILL_NAME)
    except tomllib.TOMLDecodeError as e:
        table, why = None, f" ({e})"
    else:
        why = ""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [mcp_servers.{SKILL_NAME}] cannot be added to it{why}; an inline "
                          "mcp_servers = {...} cannot be extended: write it as [mcp_servers.NAME] tables, or add "
                          f"the snippet from `goalkeeper integrate codex` ({SNIPPET_NAME}) by hand; the file was "
                          "left untouched")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if existing is not None else USER_FILE  # a config holding keys stays private
    write_text_atomic(path, merged, mode=mode)
    return True


def _toml(text: str, path: Path) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e}); fix it first, the file was left untouched") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to read as TOML; fix it first, the file was left "
                          "untouched") from None


def write_codex_skill(skills_dir: str | Path, launcher: Sequence[str] | None = None,
                      tool_timeout: int = 900) -> list[Path]:
    """Write ``<skills_dir>/goalkeeper/SKILL.md`` and the config snippet next to it."""
    root = Path(skills_dir)
    written = []
    for rel, text in sorted(skill_files(launcher, tool_timeout).items()):
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(p, text, mode=USER_FILE)
        written.append(p)
    return written
