"""`integrate claude-code --project`: merged into the user's own Claude Code files, never clobbering them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.errors import ConfigError
from goalkeeper.integrations.claude_plugin import MARK, hook_command
from goalkeeper.integrations.claude_project import merge_mcp, merge_settings, write_claude_project

from .helpers import cli_env, hook_input

ARGV = ["/opt/py/bin/python", "-m", "goalkeeper"]

USER_SETTINGS = {
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "1"},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
    },
    "enabledMcpjsonServers": ["github"],
}


def _user_project(root: Path) -> Path:
    (root / ".claude" / "commands").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text(json.dumps(USER_SETTINGS, indent=4))
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"github": {"command": "gh-mcp"}}}))
    (root / ".claude" / "commands" / "triage.md").write_text("my own triage command\n")
    return root


def _read(p: Path) -> Any:
    return json.loads(p.read_text())


def test_merge_keeps_every_user_key_and_hook_and_adds_goalkeepers(tmp_path: Path) -> None:
    data = json.loads(json.dumps(USER_SETTINGS))
    assert merge_settings(data, ARGV, tmp_path) == []
    assert data["permissions"] == USER_SETTINGS["permissions"] and data["env"] == {"FOO": "1"}
    assert data["hooks"]["PreToolUse"] == USER_SETTINGS["hooks"]["PreToolUse"]
    stop = [h["command"] for g in data["hooks"]["Stop"] for h in g["hooks"]]
    assert stop == ["say done", hook_command(ARGV, "stop")]  # the user's own Stop hook still runs first
    assert data["hooks"]["SessionStart"][0]["hooks"][0]["command"] == hook_command(ARGV, "session-start")
    assert data["enabledMcpjsonServers"] == ["github", "goalkeeper"]
    again = json.loads(json.dumps(data))
    assert len(merge_settings(again, ["goalkeeper"], tmp_path)) == 3  # another launcher: still only one hook
    assert again == data


def test_an_existing_goalkeeper_server_is_left_as_the_user_set_it(tmp_path: Path) -> None:
    data = {"mcpServers": {"goalkeeper": {"command": "my-goalkeeper", "args": ["mcp", "--workdir", "x"]}}}
    assert "left as it is" in (merge_mcp(data, ARGV, tmp_path) or "")
    assert data["mcpServers"]["goalkeeper"]["command"] == "my-goalkeeper"
    fresh: dict[str, Any] = {}
    assert merge_mcp(fresh, ARGV, tmp_path) is None
    assert fresh == {"mcpServers": {"goalkeeper": {"command": ARGV[0], "args": ["-m", "goalkeeper", "mcp"]}}}


def test_writing_twice_changes_nothing_and_keeps_the_users_files(tmp_path: Path) -> None:
    root = _user_project(tmp_path)
    first = {c.path.relative_to(root).as_posix(): c.action for c in write_claude_project(root, ARGV)}
    assert first == {".mcp.json": "updated", ".claude/settings.json": "updated",
                     ".claude/commands/goal.md": "written", ".claude/commands/goal-status.md": "written",
                     ".claude/commands/triage.md": "kept", ".claude/commands/heartbeat.md": "written"}
    assert (root / ".claude" / "commands" / "triage.md").read_text() == "my own triage command\n"
    assert set(_read(root / ".mcp.json")["mcpServers"]) == {"github", "goalkeeper"}
    goal_md = (root / ".claude" / "commands" / "goal.md").read_text()
    assert MARK in goal_md and "mcp__goalkeeper__goal_new" in goal_md and "plugin_" not in goal_md
    snapshot = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    second = write_claude_project(root, ARGV)
    assert {c.action for c in second} == {"unchanged", "kept"}
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == snapshot


def test_a_marked_command_is_updated_and_an_edited_unmarked_one_kept(tmp_path: Path) -> None:
    root = tmp_path
    write_claude_project(root, ARGV)
    goal = root / ".claude" / "commands" / "goal.md"
    goal.write_text(goal.read_text().replace("Start a goalkeeper goal", "Start a goal"))  # still marked
    status = root / ".claude" / "commands" / "goal-status.md"
    status.write_text(status.read_text().replace(MARK + "\n", "") + "my notes\n")  # the user took it over
    actions = {c.path.name: c.action for c in write_claude_project(root, ["goalkeeper"])}
    assert actions["goal.md"] == "updated" and actions["goal-status.md"] == "kept"
    assert "goalkeeper goal new" in goal.read_text() and status.read_text().endswith("my notes\n")


@pytest.mark.parametrize("name,text,why", [
    (".claude/settings.json", '{"hooks": {"Stop": [}', "settings.json:1:21: not valid JSON"),
    (".claude/settings.json", "[1, 2]", "holds a JSON list"),
    (".claude/settings.json", '{"hooks": []}', "hooks is a JSON list"),
    (".claude/settings.json", '{"hooks": {"Stop": {"command": "x"}}}', "hooks.Stop is a JSON dict"),
    (".claude/settings.json", '{"enabledMcpjsonServers": "all"}', "enabledMcpjsonServers is a JSON str"),
    (".mcp.json", '{"mcpServers": ["x"]}', "mcpServers is a JSON list"),
    (".mcp.json", "{\n  'single': 'quotes'\n}", ".mcp.json:2:3: not valid JSON"),
])
def test_a_broken_file_is_refused_with_its_place_and_nothing_is_written(
        tmp_path: Path, name: str, text: str, why: str) -> None:
    root = _user_project(tmp_path)
    (root / name).write_text(text)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    with pytest.raises(ConfigError, match="left untouched") as err:
        write_claude_project(root, ARGV)
    assert why in str(err.value)
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_a_linked_settings_file_or_a_missing_project_is_refused(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / "elsewhere.json").write_text("{}")
    os.symlink(tmp_path / "elsewhere.json", tmp_path / ".claude" / "settings.json")
    with pytest.raises(ConfigError, match="not a regular file"):
        write_claude_project(tmp_path, ARGV)
    with pytest.raises(ConfigError, match="no such folder"):
        write_claude_project(tmp_path / "nope", ARGV)


def test_the_merged_hooks_answer_through_a_shell_as_claude_code_runs_them(tmp_path: Path) -> None:
    root = _user_project(tmp_path)
    write_claude_project(root)  # the default launcher: this interpreter
    hooks = _read(root / ".claude" / "settings.json")["hooks"]
    ours = {event: groups[-1]["hooks"][0]["command"] for event, groups in hooks.items() if event != "PreToolUse"}
    for event, cmd in ours.items():
        for stdin in (hook_input(event, root), "not json", ""):
            res = subprocess.run(["/bin/sh", "-c", cmd], input=stdin, capture_output=True, text=True, cwd=root,
                                 env=cli_env(), timeout=120)
            assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
            out = json.loads(res.stdout) if res.stdout.strip() else None
            assert out is None or "decision" not in out  # no goal here: nothing blocks
