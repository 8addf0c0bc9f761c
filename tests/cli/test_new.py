"""``goalkeeper new``: flags, an answers file, and a real terminal session (pexpect)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect

from goalkeeper.model.lint import lint
from goalkeeper.model.loader import load_spec


def test_new_from_flags_writes_a_valid_spec(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    r = run_cli(
        "new", "-o", "spec.yaml", "--name", "shop", "--goal", "deployed=true", "--goal", "lcp_ms<2500",
        "--fact", "built:bool=test -f built", "--fact", "deployed:bool=http://127.0.0.1:9/health",
        "--action", "build: built=false -> built=true | touch built",
        "--action", "deploy(cost=2): built=true -> deployed=true | ./deploy.sh",
        "--action", "tune: deployed=true -> lcp_ms=2000",
        "--action", "wipe(destructive,confirm): deployed=true -> deployed=false, built=false | rm -rf site",
        "--target", "hybrid", "--no-input",
    )
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "spec.yaml").read_text()
    assert text.startswith("# target: hybrid\n")
    spec = load_spec(tmp_path / "spec.yaml")
    assert not [i for i in lint(spec) if i.severity == "error"]
    assert spec.facts["deployed"].observe and spec.facts["deployed"].observe.http
    assert spec.facts["deployed"].assumption is False  # described by the author
    assert spec.facts["lcp_ms"].type == "int" and spec.facts["lcp_ms"].assumption is True
    assert spec.actions["deploy"].cost == 2 and spec.actions["wipe"].confirm
    assert "next: goalkeeper build spec.yaml --target hybrid" in r.stdout
    assert run_cli("validate", "spec.yaml").returncode == 0


def test_new_from_an_answers_file(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    answers = {
        "name": "api",
        "goal": ["healthy=true"],
        "facts": {"healthy": {"type": "bool", "observe": "curl -fsS http://127.0.0.1:9/h"}},
        "actions": {"restart": {"pre": "healthy=false", "effects": {"healthy": True},
                                "run": ["systemctl", "restart", "api"]}},
    }
    (tmp_path / "answers.json").write_text(json.dumps(answers))
    r = run_cli("new", "--answers", "answers.json", "-o", "api/spec.yaml")
    assert r.returncode == 0, r.stderr
    spec = load_spec(tmp_path / "api" / "spec.yaml")
    assert spec.name == "api" and spec.actions["restart"].run == ["systemctl", "restart", "api"]
    assert "# target: code" in (tmp_path / "api" / "spec.yaml").read_text()  # assumed and said so
    assert "assumption: target: code" in r.stdout
    again = run_cli("new", "--answers", "answers.json", "-o", "api/spec.yaml")
    assert again.returncode == 2 and "--force" in again.stderr


def test_new_without_a_goal_fails_non_interactively(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    r = run_cli("new", "--no-input", "--fact", "x:bool=true")
    assert r.returncode == 1 and "no goal" in r.stderr
    assert not (tmp_path / "spec.yaml").exists()
    bad = run_cli("new", "--no-input", "--goal", "deployed")
    assert bad.returncode == 1 and "fact=value" in bad.stderr


def test_new_interactive_terminal_session(tmp_path: Path) -> None:
    env = {**os.environ, "GOALKEEPER_HOME": str(tmp_path / "gk"), "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(sys.executable, ["-m", "goalkeeper", "new", "-o", "agent/spec.yaml"],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=20)
    try:
        child.expect("Agent name")
        child.sendline("")  # take the default: the folder name
        child.expect("goal condition")
        child.sendline("deployed")  # not a condition: asked again
        child.expect("fact=value")
        child.expect("goal condition")
        child.sendline("deployed=true")
        child.expect("goal condition")
        child.sendline("")
        child.expect("Type of fact deployed")
        child.sendline("bool")
        child.expect("How is deployed observed")
        child.sendline("test -f deployed.flag")
        child.expect("action name")
        child.sendline("deploy")
        child.expect("preconditions")
        child.sendline("built=true")
        child.expect("effects")
        child.sendline("deployed=true")
        child.expect("command to run")
        child.sendline("touch deployed.flag")
        child.expect("cost")
        child.sendline("2")
        child.expect("destructive")
        child.sendline("n")
        child.expect("action name")
        child.sendline("")
        child.expect("Type of fact built")
        child.sendline("")  # default bool
        child.expect("How is built observed")
        child.sendline("")  # assume: derived observer, marked as an assumption
        child.expect("Target runtime")
        child.sendline("llm")
        child.expect("Initial value of deployed")
        child.expect("empty: false")  # the inferred guess, taken when the answer is empty
        child.sendline("")
        child.expect("Initial value of built")
        child.sendline("false")
        child.expect("next: goalkeeper build")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    spec = load_spec(tmp_path / "agent" / "spec.yaml")
    assert spec.name == "agent"
    assert spec.actions["deploy"].cost == 2 and spec.actions["deploy"].run == "touch deployed.flag"
    assert spec.facts["built"].assumption and spec.facts["built"].observe is not None
    assert not spec.facts["deployed"].assumption
    assert spec.facts["deployed"].initial is False and spec.facts["built"].initial is False
    assert (tmp_path / "agent" / "spec.yaml").read_text().startswith("# target: llm\n")
