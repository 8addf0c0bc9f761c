"""structured(): validated pydantic output, re-asks with the error, honest uncertainty."""

from __future__ import annotations

from pydantic import BaseModel, Field

from goalkeeper.llm import ProviderError, ScriptedProvider, extract_json, get_provider, structured
from tests.fakes.openai_server import Answer, FakeOpenAIServer, Status

GOOD = '{"converged": false, "confidence": 0.8, "reasons": ["tests fail"]}'


class Verdict(BaseModel):
    converged: bool
    confidence: float = Field(ge=0, le=1)
    reasons: list[str] = []


def ask(p: ScriptedProvider, reasks: int = 2) -> object:
    return structured(p, "m", [{"role": "user", "content": "judge"}], Verdict, reasks=reasks)


def test_extract_json_variants() -> None:
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('Sure!\n```json\n{"a": 2}\n```\nbye') == {"a": 2}
    assert extract_json('<think>{"no": 1} hmm</think>{"a": 3}') == {"a": 3}
    assert extract_json('the verdict is {"a": {"b": [1, 2]}} done') == {"a": {"b": [1, 2]}}


def test_first_answer_valid() -> None:
    p = ScriptedProvider([GOOD], cost_per_call=0.01)
    res = structured(p, "m", [{"role": "user", "content": "judge"}], Verdict)
    assert not res.uncertain and res.value == Verdict(converged=False, confidence=0.8, reasons=["tests fail"])
    assert res.attempts == 1 and res.cost_dollars == 0.01 and res.cost_known
    sent = p.calls[0].messages
    assert sent[0]["role"] == "system" and "\"converged\"" in sent[0]["content"]
    assert p.calls[0].options["json_schema"] == Verdict.model_json_schema()


def test_reask_with_the_validation_error_then_success() -> None:
    p = ScriptedProvider(['{"converged": "maybe", "confidence": 3}', GOOD], cost_per_call=0.5)
    res = structured(p, "m", [{"role": "user", "content": "judge"}], Verdict)
    assert res.value is not None and res.attempts == 2 and res.cost_dollars == 1.0
    second = p.calls[1].messages
    assert second[-2] == {"role": "assistant", "content": '{"converged": "maybe", "confidence": 3}'}
    assert second[-1]["role"] == "user" and "confidence" in second[-1]["content"]
    assert "converged" in res.errors[0]


def test_two_reasks_then_uncertain_never_a_guess() -> None:
    p = ScriptedProvider(["not json", '{"converged": true}', "```json\n{broken\n```"])
    res = structured(p, "m", [{"role": "user", "content": "judge"}], Verdict)
    assert res.uncertain and res.value is None
    assert res.attempts == 3 and len(p.calls) == 3 and len(res.errors) == 3
    assert res.raw == ["not json", '{"converged": true}', "```json\n{broken\n```"]


def test_reasks_zero() -> None:
    p = ScriptedProvider(["nope"])
    res = structured(p, "m", [{"role": "user", "content": "x"}], Verdict, reasks=0)
    assert res.uncertain and res.attempts == 1


def test_truncated_answer_mentions_the_token_limit() -> None:
    p = ScriptedProvider(['{"converged": tr', GOOD], finish_reason="length")
    res = structured(p, "m", [{"role": "user", "content": "x"}], Verdict)
    assert "cut off" in res.errors[0] and res.value is not None


def test_transport_error_is_uncertain_not_raised() -> None:
    p = ScriptedProvider([ProviderError("scripted", "m", "HTTP 503")])
    res = structured(p, "m", [{"role": "user", "content": "x"}], Verdict)
    assert res.uncertain and res.value is None and "HTTP 503" in res.errors[0]


def test_unknown_cost_propagates() -> None:
    p = ScriptedProvider([GOOD], cost_known=False)
    assert structured(p, "m", [{"role": "user", "content": "x"}], Verdict).cost_known is False


def test_over_http_malformed_then_valid(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer("I think it converged."), Answer("```json\n" + GOOD + "\n```"))
    llm = get_provider("openai", base_url=openai_server.base_url, api_key="k",
                       prices={"m": {"input_per_mtok": 1, "output_per_mtok": 1}})
    res = structured(llm, "m", [{"role": "user", "content": "judge"}], Verdict, timeout=5)
    assert res.value is not None and res.value.confidence == 0.8 and res.attempts == 2
    assert res.cost_dollars > 0
    assert openai_server.requests[1]["messages"][-2]["content"] == "I think it converged."


def test_over_http_persistent_500_is_uncertain(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(*(Status(500, headers={"retry-after-ms": "5"}) for _ in range(3)))
    llm = get_provider("openai", base_url=openai_server.base_url, api_key="k", max_retries=2, prices={})
    res = structured(llm, "m", [{"role": "user", "content": "judge"}], Verdict)
    assert res.uncertain and "HTTP 500" in res.errors[0] and len(openai_server.requests) == 3
