"""The LLM oracle: prompt contents, tool rounds, veto-only, uncertainty, model separation, real HTTP."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from goalkeeper.adapters.makers import MakerRequest
from goalkeeper.adapters.scripted import ScriptedMaker
from goalkeeper.convergence import (
    ConditionResult,
    OracleConfig,
    StoppingCondition,
    create_goal,
    run_goal,
)
from goalkeeper.convergence.llm_oracle import LLMOracle, llm_oracle_from_config
from goalkeeper.convergence.oracle import OracleRequest
from goalkeeper.errors import ConfigError
from goalkeeper.llm import Message, ScriptedProvider, get_provider, same_model
from tests.fakes.openai_server import Answer, FakeOpenAIServer, running_server

PASS = ConditionResult(type="test_pass", command="pytest -q", passed=True, exit_code=0, summary="3 passed",
                       output_tail="...\n3 passed in 0.1s")
FAIL = ConditionResult(type="lint_clean", command="ruff check .", passed=False, exit_code=1,
                       summary="1 error", output_tail="x.py:1:1: F401 unused import")


def verdict(converged: bool, confidence: float = 0.9, hint: str | None = None, reasons: Sequence[str] = ("r",)) -> str:
    return json.dumps({"converged": converged, "reasons": list(reasons), "nextHint": hint, "confidence": confidence})


@pytest.fixture
def ws(make_repo: Callable[..., Path]) -> Path:
    return make_repo({"app.py": "X = 1\n"})


def req(ws: Path, *results: ConditionResult, history: tuple[dict[str, object], ...] = ()) -> OracleRequest:
    return OracleRequest(goal_id="goal-abcdefgh", objective="make lint clean", iteration=4, workspace=ws,
                         condition_results=tuple(results), maker_summary="removed the import",
                         prompt="be strict about tests", history=history)


def test_prompt_carries_the_evidence(ws: Path) -> None:
    from goalkeeper.adapters.scripted import ScriptedOracle
    from goalkeeper.convergence import Budget

    def edit(r: object) -> str:
        (ws / "app.py").write_text("X = 2\n")
        return "edit"

    g = create_goal("o", [StoppingCondition(command=["false"])], workspace=ws, budget=Budget(max_iterations=1))
    run_goal(g.goal_id, maker=ScriptedMaker([edit]), oracle=ScriptedOracle())
    llm = ScriptedProvider([verdict(False, hint="fix F401")])
    hist = tuple({"iteration": i, "oracleVerdict": "not_converged", "makerSummary": f"try {i}",
                  "conditionResults": [{"passed": False}]} for i in range(1, 5))
    request = req(ws, PASS, FAIL, history=hist)
    request = OracleRequest(**{**{f: getattr(request, f) for f in request.__dataclass_fields__},
                               "goal_id": g.goal_id, "iteration": 1})
    v = LLMOracle(llm, "judge-model").judge(request)
    assert not v.converged and v.next_hint == "fix F401" and v.confidence == 0.9
    ctx = llm.calls[0].messages[1]["content"]
    for needle in ("make lint clean", "[PASSED] test_pass `pytest -q`", "[FAILED] lint_clean `ruff check .`",
                   "F401 unused import", "removed the import", "+X = 2", "be strict about tests",
                   "iteration 4: verdict", "try 2"):
        assert needle in ctx, needle
    assert "try 1" not in ctx  # only the last 3 iterations
    assert "read_file" in llm.calls[0].messages[0]["content"]


def test_cannot_override_a_failing_condition(ws: Path) -> None:
    v = LLMOracle(ScriptedProvider([verdict(True)]), "judge").judge(req(ws, PASS, FAIL))
    assert not v.converged and any("vetoed" in r for r in v.reasons)
    assert v.next_hint and "ruff check ." in v.next_hint


def test_can_veto_when_all_pass(ws: Path) -> None:
    v = LLMOracle(ScriptedProvider([verdict(False, 0.8, "the test was deleted")]), "judge").judge(req(ws, PASS))
    assert not v.converged and v.next_hint == "the test was deleted"
    ok = LLMOracle(ScriptedProvider([verdict(True)]), "judge").judge(req(ws, PASS))
    assert ok.converged and ok.condition_results == [PASS]


def test_tool_round_trip(ws: Path) -> None:
    llm = ScriptedProvider([json.dumps({"tool": "read_file", "args": {"path": "app.py"}}),
                            json.dumps({"tool": "read_file", "args": {"path": "../../etc/passwd"}}),
                            verdict(True)], cost_per_call=0.01)
    v = LLMOracle(llm, "judge").judge(req(ws, PASS))
    assert v.converged and v.cost_dollars == pytest.approx(0.03)
    second = llm.calls[1].messages
    assert second[-1]["role"] == "tool" and "X = 1" in second[-1]["content"]
    assert "refused" in llm.calls[2].messages[-1]["content"]


def test_tool_budget_is_enforced(ws: Path) -> None:
    call = json.dumps({"tool": "list_dir", "args": {}})
    llm = ScriptedProvider([call, call, call, verdict(False, 0.7)])
    v = LLMOracle(llm, "judge", max_tool_rounds=2).judge(req(ws, FAIL))
    assert v.confidence == 0.7 and "Tool budget used up" in llm.calls[3].messages[-1]["content"]
    stubborn = ScriptedProvider([call] * 10)
    v2 = LLMOracle(stubborn, "judge", max_tool_rounds=1).judge(req(ws, PASS))
    assert not v2.converged and v2.confidence == 0.0 and len(stubborn.calls) == 3


def test_garbage_is_uncertain_never_a_verdict(ws: Path) -> None:
    llm = ScriptedProvider(["converged!", '{"converged": true}', "yes"], cost_per_call=0.1)
    v = LLMOracle(llm, "judge").judge(req(ws, PASS))
    assert not v.converged and v.confidence == 0.0 and "oracle uncertain" in v.reasons[0]
    assert v.cost_dollars == pytest.approx(0.3)


def test_unknown_cost_is_reported(ws: Path) -> None:
    v = LLMOracle(ScriptedProvider([verdict(False)], cost_known=False), "judge").judge(req(ws, FAIL))
    assert any("cost unknown" in r for r in v.reasons)


def test_refuses_the_makers_model() -> None:
    llm = ScriptedProvider([])
    with pytest.raises(ConfigError, match="also the maker"):
        LLMOracle(llm, "gpt-4o", maker_model="openai:gpt-4o")
    assert same_model("openai:GPT-4o", "openrouter/gpt-4o")  # spelling tolerant
    assert same_model("openai:gpt-4o", "gpt-4o") and same_model("llama3:8b", "openai:llama3:8b")
    assert not same_model("gpt-4o", "gpt-4o-mini") and not same_model(None, None)
    LLMOracle(llm, "gpt-4o-mini", maker_model="gpt-4o")


def test_from_config(monkeypatch: pytest.MonkeyPatch) -> None:
    for n in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GOALKEEPER_LLM_API_KEY"):
        monkeypatch.delenv(n, raising=False)
    monkeypatch.setenv("GOALKEEPER_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    o = llm_oracle_from_config(OracleConfig(model="openai:qwen2.5:7b"), provider_config={"max_tool_rounds": 3})
    assert o.model == "qwen2.5:7b" and o.max_tool_rounds == 3 and o.name == "openai:qwen2.5:7b"
    with pytest.raises(ConfigError, match="PROVIDER:MODEL"):
        llm_oracle_from_config(OracleConfig(model="gpt-4o"))
    with pytest.raises(ConfigError, match="also the maker"):
        llm_oracle_from_config(OracleConfig(model="openai:gpt-4o"), maker_model="gpt-4o")


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with running_server() as s:
        yield s


def test_full_loop_over_http_counts_oracle_cost(ws: Path, server: FakeOpenAIServer) -> None:
    """A real goal run: scripted maker, LLM oracle over a real local HTTP server."""
    check = StoppingCondition(type="custom_command", command=[
        sys.executable, "-c", "import pathlib,sys; sys.exit(0 if pathlib.Path('done.txt').exists() else 1)"])

    def write_done(r: MakerRequest) -> str:
        (r.workspace / "done.txt").write_text("ok")
        return "wrote done.txt"

    server.queue(
        Answer(verdict(False, 0.9, "create done.txt"), prompt_tokens=1_000_000, completion_tokens=0),
        Answer(json.dumps({"tool": "read_file", "args": {"path": "done.txt"}})),
        Answer("```json\n" + verdict(True, 0.95) + "\n```", prompt_tokens=1_000_000, completion_tokens=0),
    )
    llm = get_provider("openai", base_url=server.base_url, api_key="k",
                       prices={"judge": {"input_per_mtok": 1.0, "output_per_mtok": 0.0}})
    oracle = LLMOracle(llm, "judge")
    g = create_goal("make done.txt", [check], workspace=ws)
    goal = run_goal(g.goal_id, maker=ScriptedMaker(["nothing yet", write_done], cost_dollars=0.5), oracle=oracle)
    assert goal.state == "converged" and len(goal.history) == 2
    assert goal.history[0].next_hint == "create done.txt"
    assert goal.history[0].cost_dollars == pytest.approx(1.5)  # maker 0.5 + oracle 1.0
    assert goal.spent_dollars() == pytest.approx(1.5 + 0.5 + 1.0 + 100 / 1e6, rel=1e-3)
    tool_msgs: list[Message] = server.requests[2]["messages"]
    assert "ok" in tool_msgs[-1]["content"]
