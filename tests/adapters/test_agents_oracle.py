"""Coding-agent CLIs as oracles: read-only flags, verdict parsing, veto-only, tree check still applies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from goalkeeper.adapters.agents import (
    AgentMaker,
    AgentOracle,
    ClaudeCode,
    agent_oracle_from_config,
    make_cli,
)
from goalkeeper.adapters.makers import MakerRequest
from goalkeeper.adapters.scripted import ScriptedMaker
from goalkeeper.convergence import (
    ConditionResult,
    MakerSpec,
    OracleConfig,
    OracleRequest,
    StoppingCondition,
    create_goal,
    run_goal,
)
from goalkeeper.convergence.goal import Guards
from goalkeeper.errors import ConfigError

FAKE_BIN = Path(__file__).resolve().parents[1] / "fakes" / "bin"
PASS = ConditionResult(type="test_pass", command="pytest -q", passed=True, exit_code=0, summary="3 passed")
FAIL = ConditionResult(type="test_pass", command="pytest -q", passed=False, exit_code=1, summary="1 failed")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]


def verdict(converged: bool, confidence: float = 0.9) -> str:
    body = json.dumps({"converged": converged, "reasons": ["checked app.py"], "nextHint": "fix add()",
                       "confidence": confidence})
    return f"I read app.py and the tests.\n\n```json\n{body}\n```"


@pytest.fixture
def agent_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", f"{FAKE_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("FAKE_AGENT_LOG", str(log))
    for name in ("FAKE_AGENT_MODE", "FAKE_AGENT_TEXT", "FAKE_AGENT_WRITE", "FAKE_AGENT_WRITE_ANYWAY"):
        monkeypatch.delenv(name, raising=False)
    return log


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    d = tmp_path / "ws"
    d.mkdir()
    (d / "app.py").write_text("X = 1\n")
    subprocess.run([*GIT, "init", "-q"], cwd=d, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=d, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "init"], cwd=d, check=True)
    return d


def req(ws: Path, *results: ConditionResult) -> OracleRequest:
    return OracleRequest(goal_id="goal-abcdefgh", objective="make tests pass", iteration=1, workspace=ws,
                         condition_results=results, maker_summary="edited app.py")


def oracle(kind: str, **kw: object) -> AgentOracle:
    return AgentOracle(AgentMaker(make_cli(kind)), **kw)  # type: ignore[arg-type]


def argv_of(log: Path) -> list[str]:
    argv = json.loads(log.read_text().splitlines()[-1])["argv"]
    assert isinstance(argv, list)
    return argv


def test_claude_oracle_runs_read_only(agent_env: Path, ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_TEXT", verdict(True))
    v = oracle("claude-code").judge(req(ws, PASS))
    assert v.converged and v.confidence == 0.9 and v.cost_dollars == pytest.approx(0.0123)
    argv = argv_of(agent_env)
    assert argv[argv.index("--permission-mode") + 1] == "plan"
    assert argv[argv.index("--tools") + 1] == "Read,Grep,Glob"
    assert {"Edit", "Write", "Bash"} <= set(argv[argv.index("--disallowedTools") + 1].split(","))
    prompt = json.loads(agent_env.read_text().splitlines()[-1])["prompt"]  # as claude's parser reads it
    assert argv[-2] == "--" and argv[-1] == prompt
    assert "Do NOT modify" in prompt and "[PASSED] test_pass `pytest -q`" in prompt


def test_codex_oracle_sandbox_and_veto(agent_env: Path, ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_TEXT", verdict(True))
    v = oracle("codex").judge(req(ws, FAIL))
    assert not v.converged and any("vetoed" in r for r in v.reasons)
    argv = argv_of(agent_env)
    assert argv[argv.index("--sandbox") + 1] == "read-only"


def test_no_verdict_json_is_uncertain(agent_env: Path, ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_TEXT", "Looks good to me!")
    v = oracle("claude-code").judge(req(ws, PASS))
    assert not v.converged and v.confidence == 0.0 and "oracle uncertain" in v.reasons[0]
    monkeypatch.setenv("FAKE_AGENT_MODE", "error")
    v2 = oracle("claude-code").judge(req(ws, PASS))
    assert not v2.converged and v2.confidence == 0.0 and "error_max_turns" in v2.reasons[0]


def test_advisory_and_missing_read_only_modes_are_refused() -> None:
    with pytest.raises(ConfigError, match="advisory"):
        oracle("gemini")
    oracle("gemini", allow_advisory_readonly=True)
    for kind in ("aider", "goose"):
        with pytest.raises(ConfigError, match="no read-only mode"):
            oracle(kind)


def test_oracle_must_not_be_the_maker() -> None:
    with pytest.raises(ConfigError, match="would be the maker"):
        AgentOracle(AgentMaker(ClaudeCode()), maker_type="claude-code")
    with pytest.raises(ConfigError, match="would be the maker"):
        AgentOracle(AgentMaker(ClaudeCode(), model="opus"), maker_type="claude-code", maker_model="opus")
    with pytest.raises(ConfigError, match="also the maker"):
        AgentOracle(AgentMaker(ClaudeCode(), model="gpt-5"), maker_type="codex", maker_model="gpt-5")
    AgentOracle(AgentMaker(ClaudeCode(), model="opus"), maker_type="claude-code", maker_model="sonnet")


def test_from_config() -> None:
    o = agent_oracle_from_config(OracleConfig(model="agent:codex:o4-mini"),
                                 maker=MakerSpec(type="claude-code", model="sonnet"))
    assert o.name == "agent:codex:o4-mini" and o.agent.model == "o4-mini"
    with pytest.raises(ConfigError, match="agent:CLI"):
        agent_oracle_from_config(OracleConfig(model="codex"))


def test_a_writing_oracle_is_voided_by_the_tree_check(agent_env: Path, ws: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Even an 'enforced' read-only CLI is checked: if it writes, the loop voids the verdict."""
    monkeypatch.setenv("FAKE_AGENT_TEXT", verdict(True))
    monkeypatch.setenv("FAKE_AGENT_WRITE", "sneaky.txt")
    monkeypatch.setenv("FAKE_AGENT_WRITE_ANYWAY", "1")
    check = StoppingCondition(type="custom_command", command=[sys.executable, "-c", "pass"])

    def edit(r: MakerRequest) -> str:
        (r.workspace / "app.py").write_text("X = 2\n")
        return "edited"

    g = create_goal("x", [check], workspace=ws, guards=Guards(protected_paths=[]))
    goal = run_goal(g.goal_id, maker=ScriptedMaker([edit]), oracle=oracle("claude-code"))
    assert goal.history[0].oracle_verdict == "void" and goal.state == "escalated"
    assert not (ws / "sneaky.txt").exists()  # restored from the checkpoint
