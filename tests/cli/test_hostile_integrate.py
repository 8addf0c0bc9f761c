"""``goalkeeper integrate`` on settings files a user already has, damaged or odd: each is refused with its
path and left exactly as it was (a link stays a link), never an internal error, a hang or a file Codex or
Claude Code cannot read."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ..fuzz.helpers import Outcome, assert_clean_failure, invoke, snapshot


def _project(tmp_path: Path, settings: str | None = None, mcp: str | None = None) -> Path:
    p = tmp_path / "proj"
    (p / ".claude").mkdir(parents=True)
    if settings is not None:
        (p / ".claude" / "settings.json").write_text(settings)
    if mcp is not None:
        (p / ".mcp.json").write_text(mcp)
    return p


HOSTILE_JSON = {
    "deep-array": "[" * 100_000 + "]" * 100_000,
    "deep-object": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "huge-int": '{"x": 1' + "0" * 5000 + "}",
}


@pytest.mark.parametrize("which", ["settings", "mcp"])
@pytest.mark.parametrize("name", list(HOSTILE_JSON))
def test_a_settings_file_json_cannot_hold_is_refused_with_its_path(tmp_path: Path, goalkeeper_home: Path,
                                                                    which: str, name: str) -> None:
    # json.loads raises RecursionError / ValueError (int digits limit), not JSONDecodeError
    text = HOSTILE_JSON[name]
    p = _project(tmp_path, **{which: text})
    before = snapshot(p)
    o = invoke(goalkeeper_home, "integrate", "claude-code", "--project", p)
    assert_clean_failure(o, "settings.json" if which == "settings" else ".mcp.json")
    assert snapshot(p) == before


def test_a_dangling_settings_link_is_refused_not_replaced(tmp_path: Path, goalkeeper_home: Path) -> None:
    # a live link is refused ("not a regular file"); a dangling one is taken for "no file" and
    # silently replaced by a regular file, so the user's link (e.g. into a dotfiles checkout) is gone
    p = _project(tmp_path)
    link = p / ".claude" / "settings.json"
    link.symlink_to(tmp_path / "dotfiles" / "claude-settings.json")
    o = invoke(goalkeeper_home, "integrate", "claude-code", "--project", p)
    assert link.is_symlink(), "the user's settings link was replaced by a regular file"
    assert_clean_failure(o, "settings.json")


def _codex(tmp_path: Path, goalkeeper_home: Path, config: Path) -> Outcome:
    return invoke(goalkeeper_home, "integrate", "codex", "--dir", tmp_path / "skills", "--codex-config", config)


CODEX_CONFIGS = {
    "servers-is-a-string": 'mcp_servers = "x"\n',
    "servers-inline-table": 'mcp_servers = { other = { command = "x" } }\n',
    "deep-array": "a = " + "[" * 10_000 + "]" * 10_000 + "\n",
}


@pytest.mark.parametrize("name", list(CODEX_CONFIGS))
def test_a_codex_config_the_table_cannot_be_added_to_is_refused_with_its_path(
        tmp_path: Path, goalkeeper_home: Path, name: str) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(CODEX_CONFIGS[name])
    o = _codex(tmp_path, goalkeeper_home, cfg)
    assert_clean_failure(o, "config.toml")  # today: internal error TOMLDecodeError / RecursionError
    assert cfg.read_text() == CODEX_CONFIGS[name]


def test_a_codex_config_with_an_array_of_servers_is_not_corrupted(tmp_path: Path, goalkeeper_home: Path) -> None:
    # appending [mcp_servers.goalkeeper] after [[mcp_servers]] parses, but puts the entry inside the
    # array's last element: Codex no longer finds any server table
    cfg = tmp_path / "config.toml"
    cfg.write_text('[[mcp_servers]]\nname = "x"\n')
    o = _codex(tmp_path, goalkeeper_home, cfg)
    data = tomllib.loads(cfg.read_text())
    if o.code == 0:
        assert isinstance(data["mcp_servers"], dict) and "goalkeeper" in data["mcp_servers"], data
    else:
        assert_clean_failure(o, "config.toml", "mcp_servers")
        assert data == {"mcp_servers": [{"name": "x"}]}


def test_a_dangling_codex_config_link_is_refused_not_replaced(tmp_path: Path, goalkeeper_home: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.symlink_to(tmp_path / "dotfiles" / "codex.toml")
    o = _codex(tmp_path, goalkeeper_home, cfg)
    assert cfg.is_symlink(), "the user's config link was replaced by a regular file"
    assert_clean_failure(o, "config.toml")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_codex_config_that_is_not_a_regular_file_never_blocks(tmp_path: Path, kind: str) -> None:
    # read_text() on a FIFO blocks for ever; on /dev/zero it reads until memory runs out
    if kind == "fifo":
        cfg = tmp_path / "config.toml"
        os.mkfifo(cfg)
    else:
        cfg = Path("/dev/zero")
    env = {**os.environ, "NO_COLOR": "1", "GOALKEEPER_HOME": str(tmp_path / "home")}
    try:
        # a child process, address space capped, so a failing run cannot take the machine's memory
        res = subprocess.run([sys.executable, "-c",
                              "import resource,sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
                              "from goalkeeper.cli import cli; sys.argv[0] = 'goalkeeper'; cli()",
                              "integrate", "codex", "--dir", str(tmp_path / "skills"), "--codex-config", str(cfg)],
                             capture_output=True, text=True, env=env, timeout=10, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"integrate codex --codex-config {cfg} ({kind}) hung")
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr and str(cfg) in res.stderr
