"""docs/agents.md, executed: every block is tagged `<!-- doctest: KIND -->` and checked here, in order.

`shell` blocks run line by line (argv split without a shell; `goalkeeper` is this interpreter's
`-m goalkeeper`; `# exit N` is the expected exit code) in a scratch project with one bug. JSON and
TOML blocks are compared with what goalkeeper really writes or answers at that point.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.integrations.tools import TOOLS

from .helpers import APP_BUG, APP_FIX, cli_env, project

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
BLOCK = re.compile(r"<!-- doctest: ([a-z-]+) -->\n```(\w*)\n(.*?)\n```", re.S)
FIX = f"import pathlib\npathlib.Path('app.py').write_text({APP_FIX!r})\n"
GOAL_ID = re.compile(r"goal-[0-9a-z]{8}")


def _blocks() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2), m.group(3)) for m in BLOCK.finditer(DOC.read_text())]


def test_every_example_block_is_tagged() -> None:
    text = DOC.read_text()
    assert text.count("```") == 2 * len(_blocks()), "an example block without a doctest tag"


def test_the_mcp_tool_table_lists_exactly_the_tools() -> None:
    rows = set(re.findall(r"^\| `(\w+)` \| `", DOC.read_text(), re.M))
    assert rows == set(TOOLS)


class Scratch:
    """The reader's machine: a project with one bug, a HOME, goalkeeper and python on PATH."""

    def __init__(self, root: Path) -> None:
        self.proj = project(root, "project")
        self.home = root / "home"
        self.home.mkdir()
        bindir = Path(sys.executable).parent
        self.env = cli_env(HOME=str(self.home), PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
        for name in ("api", "web"):  # the waves example's workspaces, each with its stand-in agent
            ws = project(root, name)
            (ws / "fix.py").write_text(FIX)

    def run(self, line: str) -> subprocess.CompletedProcess[str]:
        want = re.search(r"#\s*exit (\d+)", line)
        argv = shlex.split(line, comments=True)
        argv = [os.path.expanduser(a).replace(os.path.expanduser("~"), str(self.home)) for a in argv]
        if argv[0] == "goalkeeper":
            argv = [sys.executable, "-m", "goalkeeper", *argv[1:]]
        res = subprocess.run(argv, capture_output=True, text=True, cwd=self.proj, env=self.env, timeout=300)
        expected = int(want.group(1)) if want else 0
        assert res.returncode == expected, f"{line}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
        assert "Traceback" not in res.stdout + res.stderr
        return res

    def hook(self, event: str, stdin: dict[str, Any]) -> dict[str, Any] | None:
        res = subprocess.run([sys.executable, "-m", "goalkeeper", "hook", "claude-code", event],
                             input=json.dumps(stdin), capture_output=True, text=True, cwd=self.proj, env=self.env,
                             timeout=300)
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout) if res.stdout.strip() else None


def _masked(text: str) -> str:
    return GOAL_ID.sub("GOAL", text)


def _same_start(doc: str, real: str) -> None:
    """The doc's text, up to its `...`, is what goalkeeper says (goal ids and iteration counts aside)."""
    shown = _masked(doc).split("...")[0]
    got = _masked(real)
    norm = re.compile(r"iteration \d+")
    assert norm.sub("iteration N", got).startswith(norm.sub("iteration N", shown)), (shown, got)


@pytest.mark.deep
def test_every_block_does_what_the_page_says(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    s = Scratch(tmp_path)
    stop_input: dict[str, Any] = {}
    seen = []
    for kind, lang, body in _blocks():
        seen.append(kind)
        if kind == "install":
            assert body == "pip install 'goalkeeper[mcp]'"
            pyproject = tomllib.loads((DOC.parents[1] / "pyproject.toml").read_text())
            assert any(d.startswith("mcp>=") for d in pyproject["project"]["optional-dependencies"]["mcp"])
        elif kind == "shell":
            assert lang == "sh"
            for line in body.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    s.run(line)
        elif kind == "claude":
            argv = shlex.split(body)
            assert argv[:2] == ["claude", "--plugin-dir"]
            plugin = s.proj / argv[2]
            assert json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())["name"] == "goalkeeper"
            hooks = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]
            assert hooks["Stop"][0]["hooks"][0]["command"] == "goalkeeper hook claude-code stop"
        elif kind == "slash":
            name, _, rest = body.partition(" ")
            goal_md = (s.proj / "goalkeeper-claude-plugin" / "commands" / f"{name.lstrip('/')}.md").read_text()
            assert "$ARGUMENTS" in goal_md and "--until" in rest and "--until" in goal_md
        elif kind == "settings":
            assert json.loads((s.proj / ".claude" / "settings.json").read_text()) == json.loads(body)
        elif kind == "mcp-json":
            assert json.loads((s.proj / ".mcp.json").read_text()) == json.loads(body)
        elif kind == "stop-input":
            stop_input = {**json.loads(body), "cwd": str(s.proj)}
            assert stop_input["hook_event_name"] == "Stop" and stop_input["stop_hook_active"] is False
        elif kind == "stop-block":
            doc = json.loads(body)
            real = s.hook("stop", stop_input)
            assert real is not None and set(real) == set(doc) and real["decision"] == doc["decision"] == "block"
            _same_start(doc["reason"], real["reason"])
        elif kind == "session-start":
            doc = json.loads(body)
            real = s.hook("session-start", {**stop_input, "hook_event_name": "SessionStart", "source": "resume"})
            assert real is not None and set(real) == set(doc)
            out, want = real["hookSpecificOutput"], doc["hookSpecificOutput"]
            assert out["hookEventName"] == want["hookEventName"] == "SessionStart"
            _same_start(want["additionalContext"], out["additionalContext"])
        elif kind == "stop-allow":
            (s.proj / "app.py").write_text(APP_FIX)  # the agent fixes the bug
            doc = json.loads(body)
            real = s.hook("stop", {**stop_input, "stop_hook_active": True})
            assert real is not None and set(real) == set(doc)
            assert _masked(real["systemMessage"]) == _masked(doc["systemMessage"])
            (s.proj / "app.py").write_text(APP_BUG)
        elif kind == "codex-toml":
            written = tomllib.loads((s.home / ".codex" / "config.toml").read_text())
            assert written == tomllib.loads(body)
            assert (s.proj / ".agents" / "skills" / "goalkeeper" / "SKILL.md").is_file()
        else:
            raise AssertionError(f"docs/agents.md: unknown doctest kind {kind!r}")
    assert seen.count("shell") == 5 and "stop-allow" in seen
    # the waves block ran both goals to converged
    listed = json.loads(s.run("goalkeeper goal list --json").stdout)
    goals = listed["goals"] if isinstance(listed, dict) else listed
    by_objective = {g["objective"]: g["state"] for g in goals}
    assert by_objective["make api's tests pass"] == by_objective["make web's tests pass"] == "converged"
