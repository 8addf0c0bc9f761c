"""The OpenAI-compatible provider against a real local HTTP server (no mocks of the SDK)."""

from __future__ import annotations

import pytest

from goalkeeper.errors import ConfigError
from goalkeeper.llm import OpenAIProvider, ProviderError, get_provider
from tests.fakes.openai_server import Answer, Drop, FakeOpenAIServer, Raw, Status

PRICES = {"fake-model": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}}


def provider(server: FakeOpenAIServer, **kw: object) -> OpenAIProvider:
    kw.setdefault("prices", PRICES)
    p = get_provider("openai", base_url=server.base_url, api_key="sk-test", **kw)
    assert isinstance(p, OpenAIProvider)
    return p


def test_answer_usage_and_cost(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer("hello", prompt_tokens=1000, completion_tokens=500))
    c = provider(openai_server).complete(
        [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
        model="fake-model", max_tokens=50, temperature=0.0,
    )
    assert c.text == "hello"
    assert c.usage is not None and (c.usage.input_tokens, c.usage.output_tokens) == (1000, 500)
    assert c.cost_known and c.cost_dollars == pytest.approx((1000 * 1 + 500 * 2) / 1e6)
    assert c.finish_reason == "stop"
    req = openai_server.requests[0]
    assert req["model"] == "fake-model" and req["max_tokens"] == 50 and req["temperature"] == 0.0
    assert [m["role"] for m in req["messages"]] == ["system", "user"]
    assert openai_server.headers[0]["authorization"] == "Bearer sk-test"


def test_json_schema_is_sent_as_response_format(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue("{}", "{}", "{}")
    schema = {"title": "Verdict", "type": "object", "properties": {"ok": {"type": "boolean"}}}
    provider(openai_server).complete([{"role": "user", "content": "x"}], model="fake-model", json_schema=schema)
    rf = openai_server.requests[0]["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["name"] == "Verdict"
    assert rf["json_schema"]["schema"] == schema
    provider(openai_server, json_mode="json_object").complete(
        [{"role": "user", "content": "x"}], model="fake-model", json_schema=schema)
    assert openai_server.requests[1]["response_format"] == {"type": "json_object"}
    provider(openai_server, json_mode="none").complete(
        [{"role": "user", "content": "x"}], model="fake-model", json_schema=schema)
    assert "response_format" not in openai_server.requests[2]


def test_tool_role_becomes_a_user_turn(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue("ok")
    provider(openai_server).complete([{"role": "tool", "content": "file contents"}], model="fake-model")
    assert openai_server.requests[0]["messages"] == [{"role": "user", "content": "[tool result]\nfile contents"}]


def test_500s_are_retried_with_backoff_then_succeed(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Status(500), Status(503), Answer("finally"))
    c = provider(openai_server, max_retries=2).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert c.text == "finally"
    assert len(openai_server.requests) == 3


def test_429_honours_retry_after(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Status(429, "rate limited", retry_after=0.05), Answer("ok"))
    c = provider(openai_server, max_retries=1).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert c.text == "ok" and len(openai_server.requests) == 2


def test_persistent_500_is_a_provider_error_after_the_retries(openai_server: FakeOpenAIServer) -> None:
    fast = {"retry-after-ms": "10"}
    openai_server.queue(*(Status(500, "boom", headers=fast) for _ in range(3)))
    with pytest.raises(ProviderError, match="HTTP 500") as ei:
        provider(openai_server, max_retries=2).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert ei.value.status == 500
    assert len(openai_server.requests) == 3


def test_slow_answer_times_out(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer("too late", delay=2.0))
    with pytest.raises(ProviderError, match="timed out"):
        provider(openai_server, max_retries=0, timeout=0.5).complete(
            [{"role": "user", "content": "x"}], model="fake-model")


def test_slow_answer_then_a_retry_succeeds(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer("too late", delay=2.0), Answer("in time"))
    c = provider(openai_server, max_retries=1).complete(
        [{"role": "user", "content": "x"}], model="fake-model", timeout=0.5)
    assert c.text == "in time" and len(openai_server.requests) == 2


def test_dropped_connection_is_retried_then_reported(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Drop(), Drop())
    with pytest.raises(ProviderError, match="connection failed|unreadable"):
        provider(openai_server, max_retries=1).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert len(openai_server.requests) == 2


def test_non_json_body_is_a_provider_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Raw("<html>proxy error</html>", content_type="application/json"))
    with pytest.raises(ProviderError):
        provider(openai_server, max_retries=0).complete([{"role": "user", "content": "x"}], model="fake-model")


def test_bad_key_and_missing_model_are_config_errors(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Status(401, "invalid api key"), Status(404, "model not found"))
    p = provider(openai_server, max_retries=0)
    with pytest.raises(ConfigError, match="GOALKEEPER_LLM_API_KEY"):
        p.complete([{"role": "user", "content": "x"}], model="fake-model")
    with pytest.raises(ConfigError, match="no model 'fake-model'"):
        p.complete([{"role": "user", "content": "x"}], model="fake-model")


def test_missing_key_names_the_env_var() -> None:
    with pytest.raises(ConfigError, match="GOALKEEPER_LLM_API_KEY.*OPENAI_API_KEY"):
        get_provider("openai")


def test_env_configures_url_and_a_local_server_needs_no_key(
    openai_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOALKEEPER_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/never-used")
    openai_server.queue("from env")
    c = get_provider("openai", prices=PRICES).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert c.text == "from env"
    assert openai_server.headers[0]["authorization"].startswith("Bearer ")


def test_unknown_model_cost_is_flagged_not_silent(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue("a", "b")
    p = provider(openai_server, prices={})
    with pytest.warns(UserWarning, match="no price for model 'mystery-7b'"):
        c = p.complete([{"role": "user", "content": "x"}], model="mystery-7b")
    assert (c.cost_dollars, c.cost_known) == (0.0, False)
    c2 = p.complete([{"role": "user", "content": "x"}], model="mystery-7b")  # warned once only
    assert c2.cost_known is False


def test_missing_usage_means_unknown_cost(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer("x", usage=False))
    with pytest.warns(UserWarning, match="no token usage"):
        c = provider(openai_server).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert c.usage is None and c.cost_known is False


def test_reported_model_is_used_for_the_price(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer("x", model="fake-model", prompt_tokens=1_000_000, completion_tokens=0))
    c = provider(openai_server).complete([{"role": "user", "content": "x"}], model="alias-of-fake")
    assert c.model == "fake-model" and c.cost_known and c.cost_dollars == pytest.approx(1.0)


def test_length_finish_reason_is_reported(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Answer('{"a": ', finish_reason="length"))
    c = provider(openai_server).complete([{"role": "user", "content": "x"}], model="fake-model")
    assert c.finish_reason == "length"
