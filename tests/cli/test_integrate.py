"""`goalkeeper integrate ...` end to end, and the issue's "done when": a Claude Code session, driven as
Claude Code drives it, that may stop only once the tests pass, with the goal converged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import anyio
import pytest

from ..integrations.helpers import APP_FIX, PYTEST, cli_env, gk, hook_input, project


def _hooks(plugin: Path) -> dict[str, str]:
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]
    return {event: groups[0]["hooks"][0]["command"] for event, groups in hooks.items()}


class ClaudeCode:
    """What Claude Code does with the plugin: run its hook commands through a shell, JSON in and out."""

    def __init__(self, plugin: Path, project_dir: Path, session: str,
                 commands: dict[str, str] | None = None) -> None:
        self.commands = commands or _hooks(plugin)
        self.plugin, self.project, self.session = plugin, project_dir, session
        self.stop_hook_active = False

    def hook(self, event: str, **fields: Any) -> dict[str, Any] | None:
        stdin = hook_input(event, self.project, session=self.session, **fields)
        env = cli_env(CLAUDE_PROJECT_DIR=str(self.project), CLAUDE_PLUGIN_ROOT=str(self.plugin))
        res = subprocess.run(["/bin/sh", "-c", self.commands[event]], input=stdin, capture_output=True, text=True,
                             cwd=self.project, env=env, timeout=300)
        assert res.returncode == 0, res.stderr  # exit 2 would block through stderr; goalkeeper never does
        return json.loads(res.stdout) if res.stdout.strip() else None

    def try_to_stop(self) -> dict[str, Any] | None:
        """The agent ends its turn: a block makes it continue (and marks the next stop as hook-driven)."""
        out = self.hook("Stop", stop_hook_active=self.stop_hook_active)
        self.stop_hook_active = bool(out and out.get("decision") == "block")
        return out


def _mcp_goal_new(plugin: Path, project_dir: Path, args: dict[str, Any],
                  server: dict[str, Any] | None = None) -> dict[str, Any]:
    """The agent's `/goal`: call goal_new on the server the plugin's .mcp.json starts."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    server = server or json.loads((plugin / ".mcp.json").read_text())["goalkeeper"]
    env = {k: os.environ[k] for k in ("GOALKEEPER_HOME", "GOALKEEPER_KEYS", "PATH") if k in os.environ}
    env["CLAUDE_PROJECT_DIR"] = str(project_dir)  # as Claude Code starts a plugin's MCP server
    params = StdioServerParameters(command=server["command"], args=server["args"], env=env, cwd=str(plugin))
    out: dict[str, Any] = {}

    async def main() -> None:
        with open(plugin.parent / "mcp.stderr", "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                tools = {t.name for t in (await client.list_tools()).tools}
                assert {"goal_new", "goal_check", "goal_status", "triage_list"} <= tools
                result = await client.call_tool("goal_new", args)
                assert not result.is_error, result.content
                out.update(result.structured_content or {})

    anyio.run(main)
    return out


@pytest.mark.deep
def test_done_when_the_plugin_stop_hook_blocks_until_the_tests_pass(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    ws = project(tmp_path)  # a fresh workspace: one bug, one failing test
    res = gk("integrate", "claude-code", "--dir", str(tmp_path / "X"), cwd=ws)
    assert res.returncode == 0, res.stderr
    plugin = tmp_path / "X"
    claude = ClaudeCode(plugin, ws, session="5c1e2d7a-session")
    assert claude.hook("SessionStart", source="startup") is None  # no goal yet
    # `/goal make the tests pass`: the agent follows commands/goal.md and calls the MCP tool
    goal = _mcp_goal_new(plugin, ws, {"objective": "make the tests pass", "until": [PYTEST],
                                      "maker_type": "host", "session": claude.session})
    gid = goal["goalId"]
    assert goal["state"] == "active" and goal["workspace"] == str(ws.resolve())
    # the agent claims it is done without fixing anything: blocked, told what fails
    first = claude.try_to_stop()
    assert first is not None and first["decision"] == "block" and "test_add" in first["reason"]
    # a second turn that still does not fix it: blocked again (stop_hook_active is now true)
    second = claude.try_to_stop()
    assert second is not None and second["decision"] == "block" and "iteration 2" in second["reason"]
    # the scripted host fixes the bug between stops
    (ws / "app.py").write_text(APP_FIX)
    third = claude.try_to_stop()
    assert third is not None and "decision" not in third and "converged" in third["systemMessage"]
    assert claude.hook("SessionEnd", reason="prompt_input_exit") is None
    status = json.loads(gk("goal", "status", gid, "--json", cwd=ws).stdout)
    assert status["state"] == "converged" and status["iterations"] == 3
    # a later session in the same project: nothing open, the stop is free
    claude.session = "another-session"
    assert claude.hook("SessionStart", source="startup") is None and claude.try_to_stop() is None


def test_integrate_claude_code_prints_how_to_load_it(tmp_path: Path) -> None:
    res = gk("integrate", "claude-code", "--dir", "plug", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "claude --plugin-dir plug" in res.stdout and (tmp_path / "plug" / "hooks" / "hooks.json").is_file()
    js = gk("integrate", "claude-code", "--dir", "plug", "--launcher", "goalkeeper", "--json", cwd=tmp_path)
    data = json.loads(js.stdout)
    assert data["target"] == "claude-code" and len(data["files"]) == 7
    assert _hooks(tmp_path / "plug")["Stop"] == "goalkeeper hook claude-code stop"
    bad = gk("integrate", "claude-code", "--launcher", "'unclosed", cwd=tmp_path)
    assert bad.returncode == 2 and "cannot split" in bad.stderr


def test_integrate_codex_writes_the_skill_and_merges_the_config(tmp_path: Path) -> None:
    cfg = tmp_path / "home" / ".codex" / "config.toml"
    res = gk("integrate", "codex", "--codex-config", str(cfg), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / ".agents" / "skills" / "goalkeeper" / "SKILL.md").is_file()
    assert "added [mcp_servers.goalkeeper] to" in res.stdout
    server = tomllib.loads(cfg.read_text())["mcp_servers"]["goalkeeper"]
    assert server["command"] == sys.executable
    again = gk("integrate", "codex", "--codex-config", str(cfg), "--json", cwd=tmp_path)
    assert json.loads(again.stdout)["configUpdated"] is False
    plain = gk("integrate", "codex", "--dir", "sk", cwd=tmp_path)
    assert "codex-mcp.toml" in plain.stdout and "~/.codex/config.toml" in plain.stdout
    broken = tmp_path / "broken.toml"
    broken.write_text("= nope")
    fail = gk("integrate", "codex", "--codex-config", str(broken), cwd=tmp_path)
    assert fail.returncode == 1 and "not valid TOML" in fail.stderr and "Traceback" not in fail.stderr


def test_integrate_into_a_project_keeps_its_settings_and_its_stop_hook_blocks_until_the_tests_pass(
        tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    ws = project(tmp_path)
    (ws / ".claude").mkdir()
    user = {"permissions": {"allow": ["Bash(make:*)"]}, "model": "opus",
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}
    (ws / ".claude" / "settings.json").write_text(json.dumps(user))
    res = gk("integrate", "claude-code", "--project", str(ws), cwd=ws)
    assert res.returncode == 0, res.stderr
    assert "updated" in res.stdout and "written" in res.stdout
    settings = json.loads((ws / ".claude" / "settings.json").read_text())
    assert settings["permissions"] == user["permissions"] and settings["model"] == "opus"
    assert settings["hooks"]["Stop"][0] == user["hooks"]["Stop"][0]
    commands = {event: groups[-1]["hooks"][0]["command"] for event, groups in settings["hooks"].items()}
    server = json.loads((ws / ".mcp.json").read_text())["mcpServers"]["goalkeeper"]
    claude = ClaudeCode(ws, ws, session="project-session", commands=commands)
    goal = _mcp_goal_new(ws, ws, {"objective": "make the tests pass", "until": [PYTEST],
                                  "session": claude.session}, server=server)
    ctx = claude.hook("SessionStart", source="resume")
    assert ctx is not None and goal["goalId"] in ctx["hookSpecificOutput"]["additionalContext"]
    first = claude.try_to_stop()
    assert first is not None and first["decision"] == "block" and "test_add" in first["reason"]
    (ws / "app.py").write_text(APP_FIX)
    second = claude.try_to_stop()
    assert second is not None and "decision" not in second and "converged" in second["systemMessage"]
    again = json.loads(gk("integrate", "claude-code", "--project", str(ws), "--json", cwd=ws).stdout)
    assert {c["action"] for c in again["changes"]} == {"unchanged"}
    both = gk("integrate", "claude-code", "--project", str(ws), "--dir", "X", cwd=ws)
    assert both.returncode == 2 and "not both" in both.stderr
    (ws / ".mcp.json").write_text('{"mcpServers": ')
    broken = gk("integrate", "claude-code", "--project", str(ws), cwd=ws)
    assert broken.returncode == 1 and ".mcp.json:1:" in broken.stderr and "left untouched" in broken.stderr
    assert "Traceback" not in broken.stderr and (ws / ".mcp.json").read_text() == '{"mcpServers": '
