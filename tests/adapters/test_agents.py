"""Coding-agent makers against fake executables that print each CLI's documented output."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from goalkeeper.adapters.agents import AGENT_CLIS, AgentMaker, Codex, make_cli
from goalkeeper.adapters.makers import MAKERS, MakerRequest, get_maker
from goalkeeper.convergence.goal import MakerSpec
from goalkeeper.errors import ConfigError

FAKE_BIN = Path(__file__).resolve().parents[1] / "fakes" / "bin"
KINDS = ["claude-code", "codex", "gemini", "opencode", "aider", "goose"]


@pytest.fixture
def agent_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake CLIs first on PATH; returns the argv log file."""
    monkeypatch.setenv("PATH", f"{FAKE_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("FAKE_AGENT_LOG", str(log))
    for name in ("FAKE_AGENT_MODE", "FAKE_AGENT_TEXT", "FAKE_AGENT_COST", "FAKE_AGENT_WRITE", "GOALKEEPER_PRICES"):
        monkeypatch.delenv(name, raising=False)
    return log


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    d = tmp_path / "ws"
    d.mkdir()
    (d / "app.py").write_text("X = 1\n")
    return d


def calls(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def request(ws: Path, hint: str | None = "tests still fail: test_add") -> MakerRequest:
    return MakerRequest(goal_id="goal-abcdefgh", objective="make `pytest` pass; don't touch tests",
                        hint=hint, iteration=2, workspace=ws, timeout=60)


def test_every_agent_is_a_registered_maker_type() -> None:
    assert set(AGENT_CLIS) <= set(MAKERS)


@pytest.mark.parametrize("kind", ["claude-code", "codex", "gemini", "opencode", "aider", "goose"])
def test_success_reads_summary_and_passes_prompt_as_one_argv_item(kind: str, agent_env: Path, ws: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_WRITE", "edited.txt")
    monkeypatch.setenv("FAKE_AGENT_TEXT", "Fixed add(); 3 tests pass. $(rm -rf /) `x`")
    maker = get_maker(MakerSpec(type=kind))
    res = maker.make(request(ws))
    assert res.exit_code == 0 and not res.timed_out
    assert "Fixed add(); 3 tests pass." in res.summary
    assert (ws / "edited.txt").exists()
    (call,) = calls(agent_env)
    assert Path(str(call["cwd"])).resolve() == ws.resolve()
    prompt = call["prompt"]  # as the CLI's own argument parser reads it
    assert isinstance(prompt, str)
    assert prompt.startswith("make `pytest` pass; don't touch tests") and "tests still fail: test_add" in prompt


HOSTILE_OBJECTIVES = ["-rf --version", "--help", "-", "resume", "--model=evil -- x", "-p", "-- "]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("objective", HOSTILE_OBJECTIVES)
def test_an_objective_that_looks_like_a_flag_reaches_the_cli_as_the_prompt(
        kind: str, objective: str, agent_env: Path, ws: Path) -> None:
    req = MakerRequest(goal_id="goal-abcdefgh", objective=objective, hint=None, iteration=1, workspace=ws,
                       timeout=60)
    maker = get_maker(MakerSpec(type=kind, argv=["--verbose"] if kind == "claude-code" else []))
    if kind == "codex" and objective.strip() == "-":  # codex would read its stdin: refused, never run
        with pytest.raises(ConfigError, match="read its prompt from stdin"):
            maker.make(req)
        assert not agent_env.exists()
        return
    res = maker.make(req)
    (call,) = calls(agent_env)
    assert call["prompt"] == objective.strip(), call
    assert res.exit_code == 0, res.summary


def test_generic_agent_refuses_a_flag_like_objective_without_a_separator(tmp_path: Path, ws: Path) -> None:
    req = MakerRequest(goal_id="goal-abcdefgh", objective="-rf /", hint=None, iteration=1, workspace=ws)
    plain = get_maker(MakerSpec(type="agent", argv=["echo", "{prompt}"]))
    with pytest.raises(ConfigError, match="put '--' before '\\{prompt\\}'"):
        plain.make(req)
    res = get_maker(MakerSpec(type="agent", argv=["echo", "--", "{prompt}"])).make(req)
    assert res.exit_code == 0 and "-rf /" in res.summary


def test_prompts_with_nul_or_lone_surrogates_still_run(agent_env: Path, ws: Path) -> None:
    req = MakerRequest(goal_id="goal-abcdefgh", objective="fix\x00 it \ud800 now", hint=None, iteration=1,
                       workspace=ws)
    res = get_maker(MakerSpec(type="codex")).make(req)
    assert res.exit_code == 0
    assert calls(agent_env)[0]["prompt"] == "fix it \ufffd now"


def test_maker_options_are_typed(agent_env: Path, ws: Path) -> None:
    with pytest.raises(ConfigError, match="maker.options output: expected one of text, json, jsonl"):
        get_maker(MakerSpec(type="agent", argv=["x", "{prompt}"], options={"output": "xml"}))
    with pytest.raises(ConfigError, match="maker.options prgram: unknown option.*did you mean program"):
        get_maker(MakerSpec(type="codex", options={"prgram": "/bin/codex"}))


EXPECTED_COST = {
    "claude-code": 0.0123,  # total_cost_usd
    "opencode": 0.0123,     # sum of step_finish part.cost
    "aider": 0.0123,        # "Cost: $0.0123 message"
}


@pytest.mark.parametrize("kind", ["claude-code", "opencode", "aider"])
def test_reported_cost(kind: str, agent_env: Path, ws: Path) -> None:
    res = get_maker(MakerSpec(type=kind)).make(request(ws))
    assert res.cost_dollars == pytest.approx(EXPECTED_COST[kind])


def test_gemini_cost_from_token_stats(agent_env: Path, ws: Path) -> None:
    pytest.importorskip("genai_prices")
    maker = get_maker(MakerSpec(type="gemini"))
    assert isinstance(maker, AgentMaker)
    res = maker.make(request(ws))
    assert res.cost_dollars > 0 and maker.last_cost_known
    out = maker.last_output
    assert out is not None and out.usage is not None and out.usage.input_tokens == 10000
    assert out.usage.output_tokens == 1500 and out.model == "gemini-2.5-flash"


def test_codex_cost_from_usage_and_price_table(agent_env: Path, ws: Path) -> None:
    maker = get_maker(MakerSpec(type="codex", model="house-model",
                                options={}))
    assert isinstance(maker, AgentMaker)
    from goalkeeper.llm import PriceTable

    maker.prices = PriceTable({"house-model": {"input_per_mtok": 1.0, "output_per_mtok": 10.0}})
    res = maker.make(request(ws))
    assert res.cost_dollars == pytest.approx((24763 * 1 + 122 * 10) / 1e6)
    assert "--model" in calls(agent_env)[0]["argv"]  # type: ignore[operator]


def test_codex_without_model_has_unknown_cost(agent_env: Path, ws: Path) -> None:
    maker = get_maker(MakerSpec(type="codex"))
    assert isinstance(maker, AgentMaker)
    res = maker.make(request(ws))
    assert res.cost_dollars == 0.0 and maker.last_cost_known is False


def test_goose_cost_unknown(agent_env: Path, ws: Path) -> None:
    maker = get_maker(MakerSpec(type="goose"))
    assert isinstance(maker, AgentMaker)
    assert maker.make(request(ws)).cost_dollars == 0.0 and maker.last_cost_known is False


@pytest.mark.parametrize("kind", ["claude-code", "codex", "gemini", "opencode", "aider", "goose"])
def test_error_output_is_a_failed_run(kind: str, agent_env: Path, ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_MODE", "error")
    res = get_maker(MakerSpec(type=kind)).make(request(ws))
    assert res.exit_code not in (0, None) and "failed" in res.summary
    expected = {"claude-code": "error_max_turns", "codex": "stream disconnected", "gemini": "Quota exceeded",
                "opencode": "invalid x-api-key", "aider": "AuthenticationError", "goose": "authenticate"}[kind]
    assert expected in res.summary


def test_claude_error_still_counts_its_cost(agent_env: Path, ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_MODE", "error")
    assert get_maker(MakerSpec(type="claude-code")).make(request(ws)).cost_dollars == pytest.approx(0.0123)


@pytest.mark.parametrize("kind", ["claude-code", "codex", "gemini", "opencode"])
def test_garbage_output_is_a_failure_not_a_crash(kind: str, agent_env: Path, ws: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_AGENT_MODE", "garbage")
    res = get_maker(MakerSpec(type=kind)).make(request(ws))
    assert res.exit_code not in (0, None) or "no summary" in res.summary


def test_missing_executable_names_the_fix(ws: Path) -> None:
    res = get_maker(MakerSpec(type="claude-code", options={"program": "/nonexistent/claude"})).make(request(ws))
    assert res.exit_code == 127 and "maker.options.program" in res.summary


def test_maker_flags(agent_env: Path, ws: Path) -> None:
    get_maker(MakerSpec(type="claude-code", model="sonnet", argv=["--max-turns", "20"])).make(request(ws))
    get_maker(MakerSpec(type="codex", model="o4-mini")).make(request(ws))
    get_maker(MakerSpec(type="aider", model="gpt-4o")).make(request(ws))
    claude, codex, aider = (c["argv"] for c in calls(agent_env))
    assert isinstance(claude, list) and isinstance(codex, list) and isinstance(aider, list)
    assert claude[:3] == ["-p", "--output-format", "json"]
    assert claude[3:5] == ["--model", "sonnet"] and "acceptEdits" in claude
    assert claude[-4:-1] == ["--max-turns", "20", "--"]  # extra arguments before the prompt's "--"
    assert codex[:4] == ["exec", "--json", "--sandbox", "workspace-write"] and codex[-2] == "--"
    assert "--yes-always" in aider and "--no-auto-commits" in aider and aider[0].startswith("--message=")


def test_generic_agent_json(tmp_path: Path, ws: Path) -> None:
    script = tmp_path / "my-agent.py"
    script.write_text("import json, sys\nprint(json.dumps({'answer': {'text': 'done: ' + sys.argv[-1]}, "
                      "'billing': {'usd': 0.5}}))\n")
    spec = MakerSpec(type="agent", argv=["python", str(script), "{prompt}"],
                     options={"output": "json", "text_field": "answer.text", "cost_field": "billing.usd"})
    res = get_maker(spec).make(request(ws, hint=None))
    assert res.summary.startswith("done: make `pytest` pass") and res.cost_dollars == 0.5


def test_generic_agent_needs_a_prompt_slot() -> None:
    with pytest.raises(ConfigError, match=r"\{prompt\}"):
        get_maker(MakerSpec(type="agent", argv=["my-agent"]))
    with pytest.raises(ConfigError, match="unknown agent CLI"):
        make_cli("cursor")


def test_real_git_workspace_is_untouched_by_flags(agent_env: Path, ws: Path) -> None:
    """The adapters never run git themselves (aider is told --no-auto-commits)."""
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    head = (ws / ".git" / "HEAD").read_text()
    get_maker(MakerSpec(type="aider")).make(request(ws))
    assert (ws / ".git" / "HEAD").read_text() == head
    assert Codex().argv("p", model=None, read_only=True)[:5] == ["codex", "exec", "--json", "--sandbox", "read-only"]
