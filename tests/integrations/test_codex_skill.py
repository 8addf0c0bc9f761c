"""The generated Codex skill and config entry: the front matter Codex needs, TOML Codex can read."""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from goalkeeper.errors import ConfigError
from goalkeeper.integrations.codex_skill import (
    codex_config_snippet,
    merge_codex_config,
    skill_files,
    write_codex_skill,
)


def test_skill_md_has_the_name_and_description_codex_picks_it_by(tmp_path: Path) -> None:
    written = write_codex_skill(tmp_path / "skills")
    assert sorted(p.name for p in written) == ["SKILL.md", "codex-mcp.toml"]
    text = (tmp_path / "skills" / "goalkeeper" / "SKILL.md").read_text()
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    front = yaml.safe_load(head)
    assert set(front) == {"name", "description"}
    # the agent skills rules: lower-case letters, digits, hyphens, at most 64, the folder's own name
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", front["name"]) and len(front["name"]) <= 64
    assert front["name"] == "goalkeeper"
    assert 50 < len(front["description"]) <= 1024 and "Use when" in front["description"]
    for part in ("goal_new", '"host"', "goal_check", "converged", "escalated", "triageId", "Never edit"):
        assert part in body, part
    assert f"{sys.executable} -m goalkeeper goal check ID --json" in body


def test_the_config_snippet_is_toml_codex_reads() -> None:
    data = tomllib.loads(codex_config_snippet())
    server = data["mcp_servers"]["goalkeeper"]
    assert server["command"] == sys.executable and server["args"] == ["-m", "goalkeeper", "mcp"]
    assert server["tool_timeout_sec"] == 900 and server["startup_timeout_sec"] == 30
    odd = tomllib.loads(codex_config_snippet(['C:\\it\'s "odd"\\py', "-m", "goalkeeper"], 60))
    assert odd["mcp_servers"]["goalkeeper"]["command"] == 'C:\\it\'s "odd"\\py'
    assert skill_files()["goalkeeper/codex-mcp.toml"] == codex_config_snippet()


def test_merging_keeps_the_users_config_and_is_idempotent(tmp_path: Path) -> None:
    cfg = tmp_path / ".codex" / "config.toml"
    cfg.parent.mkdir()
    cfg.write_text('model = "o4-mini"\n\n[mcp_servers.other]\ncommand = "other"\n')
    os.chmod(cfg, 0o600)
    assert merge_codex_config(cfg) is True
    data = tomllib.loads(cfg.read_text())
    assert data["model"] == "o4-mini" and data["mcp_servers"]["other"]["command"] == "other"
    assert data["mcp_servers"]["goalkeeper"]["args"] == ["-m", "goalkeeper", "mcp"]
    assert cfg.stat().st_mode & 0o777 == 0o600  # a config that may hold keys stays private
    before = cfg.read_text()
    assert merge_codex_config(cfg) is False and cfg.read_text() == before
    fresh = tmp_path / "new" / "config.toml"
    assert merge_codex_config(fresh) is True and "goalkeeper" in tomllib.loads(fresh.read_text())["mcp_servers"]


def test_a_broken_config_is_refused_and_left_untouched(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("model = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        merge_codex_config(cfg)
    assert cfg.read_text() == "model = \n"
