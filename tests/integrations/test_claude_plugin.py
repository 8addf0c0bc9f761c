"""The generated Claude Code plugin: every file parses, has the keys Claude Code needs, and its hooks answer."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from goalkeeper import __version__
from goalkeeper.integrations.claude_plugin import plugin_files, write_claude_plugin

from .helpers import cli_env, hook_input, new_host_goal, project

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")  # Claude Code's plugin name rule (kebab-case)


def _front_matter(text: str) -> tuple[dict[str, Any], str]:
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    data = yaml.safe_load(head)
    assert isinstance(data, dict)
    return data, body


def test_the_manifest_hooks_and_mcp_config_have_what_claude_code_reads(tmp_path: Path) -> None:
    written = write_claude_plugin(tmp_path / "plug")
    names = sorted(str(p.relative_to(tmp_path / "plug")) for p in written)
    assert names == [".claude-plugin/plugin.json", ".mcp.json", "commands/goal-status.md", "commands/goal.md",
                     "commands/heartbeat.md", "commands/triage.md", "hooks/hooks.json"]
    for p in written:
        assert p.stat().st_mode & 0o777 == 0o644  # the user's files, readable like any checkout
    manifest = json.loads((tmp_path / "plug/.claude-plugin/plugin.json").read_text())
    assert NAME.match(manifest["name"]) and manifest["version"] == __version__
    assert re.match(r"^\d+\.\d+\.\d+", manifest["version"]) and manifest["description"]
    assert manifest["author"]["name"]
    hooks = json.loads((tmp_path / "plug/hooks/hooks.json").read_text())
    assert set(hooks["hooks"]) == {"Stop", "SessionStart", "SessionEnd"}
    for event, groups in hooks["hooks"].items():
        assert isinstance(groups, list) and groups
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for h in group["hooks"]:
                assert h["type"] == "command" and isinstance(h["command"], str)
                assert isinstance(h["timeout"], int) and h["timeout"] >= 10, event
    assert hooks["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    assert hooks["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 900
    mcp = json.loads((tmp_path / "plug/.mcp.json").read_text())
    server = mcp["goalkeeper"]
    assert server["command"] == sys.executable and server["args"] == ["-m", "goalkeeper", "mcp"]


def test_every_command_has_front_matter_and_tells_the_agent_what_to_call(tmp_path: Path) -> None:
    files = plugin_files()
    commands = {k: v for k, v in files.items() if k.startswith("commands/")}
    assert set(commands) == {"commands/goal.md", "commands/goal-status.md", "commands/triage.md",
                             "commands/heartbeat.md"}
    for name, text in commands.items():
        front, body = _front_matter(text)
        assert isinstance(front["description"], str) and 10 < len(front["description"]) <= 100, name
        assert isinstance(front.get("allowed-tools", []), list), name
        assert body.strip(), name
    goal_front, goal = _front_matter(commands["commands/goal.md"])
    assert "$ARGUMENTS" in goal and "${CLAUDE_SESSION_ID}" in goal and "goal_new" in goal
    assert '"host"' in goal and goal_front["argument-hint"]
    assert "mcp__plugin_goalkeeper_goalkeeper__goal_new" in goal_front["allowed-tools"]
    assert "goal_list" in commands["commands/goal-status.md"]
    assert "triage_list" in commands["commands/triage.md"] and "Do not act" in commands["commands/triage.md"]
    assert f"{sys.executable} -m goalkeeper heartbeat" in commands["commands/heartbeat.md"]


def _run_hook(command: str, stdin: str, cwd: Path, plugin: Path) -> dict[str, Any] | None:
    """A hook command as Claude Code runs it: through a shell, in the project, with its variables set."""
    env = cli_env(CLAUDE_PROJECT_DIR=str(cwd), CLAUDE_PLUGIN_ROOT=str(plugin))
    res = subprocess.run(["/bin/sh", "-c", command], input=stdin, capture_output=True, text=True, cwd=cwd,
                         env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout) if res.stdout.strip() else None


def test_each_hook_command_answers_sample_inputs_correctly(tmp_path: Path) -> None:
    plugin = tmp_path / "plug"
    write_claude_plugin(plugin)
    hooks = json.loads((plugin / "hooks/hooks.json").read_text())["hooks"]
    cmd = {event: groups[0]["hooks"][0]["command"] for event, groups in hooks.items()}
    ws = project(tmp_path)
    # nothing open yet: every hook is silent and lets Claude Code go on
    for event in ("Stop", "SessionStart", "SessionEnd"):
        assert _run_hook(cmd[event], hook_input(event, ws), ws, plugin) is None, event
    gid = new_host_goal(ws)
    start = _run_hook(cmd["SessionStart"], hook_input("SessionStart", ws), ws, plugin)
    assert start is not None and gid in start["hookSpecificOutput"]["additionalContext"]
    stop = _run_hook(cmd["Stop"], hook_input("Stop", ws), ws, plugin)
    assert stop is not None and stop["decision"] == "block" and gid in stop["reason"]
    broken = _run_hook(cmd["Stop"], "not json", ws, plugin)
    assert broken is not None and "decision" not in broken and broken["systemMessage"]
    assert _run_hook(cmd["SessionEnd"], hook_input("SessionEnd", ws), ws, plugin) is None


def test_a_launcher_path_with_spaces_and_quotes_survives_the_shell(tmp_path: Path) -> None:
    odd = tmp_path / "it's a dir"
    odd.mkdir()
    wrapper = odd / "py thon"  # a script, not a link: a linked venv python would lose its venv
    wrapper.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n")
    wrapper.chmod(0o755)
    plugin = tmp_path / "plug"
    write_claude_plugin(plugin, [str(odd / "py thon"), "-m", "goalkeeper"])
    hooks = json.loads((plugin / "hooks/hooks.json").read_text())["hooks"]
    ws = project(tmp_path)
    out = _run_hook(hooks["Stop"][0]["hooks"][0]["command"], "{", ws, plugin)
    assert out is not None and "not JSON" in out["systemMessage"]
    mcp = json.loads((plugin / ".mcp.json").read_text())["goalkeeper"]
    assert mcp["command"] == str(wrapper) and mcp["args"] == ["-m", "goalkeeper", "mcp"]
