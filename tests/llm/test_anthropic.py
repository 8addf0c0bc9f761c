"""The native Anthropic provider against a real local server speaking the Messages API."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from goalkeeper.errors import ConfigError
from goalkeeper.llm import get_provider, structured
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply, running_anthropic

pytest.importorskip("anthropic")

PRICES = {"claude-test": {"input_per_mtok": 3.0, "output_per_mtok": 15.0}}


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    with running_anthropic() as s:
        yield s


def provider(server: FakeAnthropicServer, **kw: object) -> object:
    return get_provider("anthropic", api_key="sk-test", base_url=server.base_url, prices=PRICES,
                        max_retries=kw.pop("max_retries", 2), **kw)


def test_completion_usage_cost_and_system_lifted(server: FakeAnthropicServer) -> None:
    server.queue(Reply("hello", input_tokens=1000, output_tokens=100))
    llm = provider(server)
    out = llm.complete(  # type: ignore[attr-defined]
        [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}], model="claude-test"
    )
    assert out.text == "hello" and out.finish_reason == "stop"
    assert out.usage.input_tokens == 1000 and out.usage.output_tokens == 100
    assert out.cost_known and out.cost_dollars == pytest.approx(1000 * 3e-6 + 100 * 15e-6)
    req = server.requests[0]
    assert req["system"] == "be brief"
    assert req["messages"] == [{"role": "user", "content": "hi"}]
    h = server.headers[0]  # the key travels as x-api-key or a bearer token, depending on SDK version
    assert h.get("x-api-key") == "sk-test" or h.get("authorization") == "Bearer sk-test"


def test_overloaded_and_500_are_retried(server: FakeAnthropicServer) -> None:
    server.queue(Reply(status=529), Reply(status=500), Reply("ok"))
    out = provider(server).complete([{"role": "user", "content": "x"}], model="claude-test")  # type: ignore[attr-defined]
    assert out.text == "ok"
    assert len(server.requests) == 3


def test_rejected_key_is_a_config_error_naming_the_variable(server: FakeAnthropicServer) -> None:
    server.queue(Reply(status=401))
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        provider(server).complete([{"role": "user", "content": "x"}], model="claude-test")  # type: ignore[attr-defined]


class Verdict(BaseModel):
    converged: bool
    confidence: float


def test_structured_reasks_then_validates(server: FakeAnthropicServer) -> None:
    server.queue("not json", json.dumps({"converged": False, "confidence": 0.8}))
    res = structured(provider(server), "claude-test", [{"role": "user", "content": "judge"}], Verdict)  # type: ignore[arg-type]
    assert not res.uncertain and res.value == Verdict(converged=False, confidence=0.8)
    assert res.attempts == 2
    # The re-ask carries the validation problem back to the model.
    assert "JSON" in json.dumps(server.requests[1]["messages"])
