"""The provider registry, the scripted double and the optional extras."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import pytest

from goalkeeper.errors import ConfigError, MissingExtraError
from goalkeeper.llm import (
    PROVIDERS,
    Completion,
    Message,
    Provider,
    ScriptedProvider,
    get_provider,
    register_provider,
)


def test_builtins_are_registered() -> None:
    assert {"openai", "anthropic", "scripted"} <= set(PROVIDERS)


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="known: .*openai.*scripted"):
        get_provider("nope")


def test_third_party_registration() -> None:
    @register_provider("echo-test")
    class Echo:
        name = "echo-test"

        def __init__(self, prefix: str = "") -> None:
            self.prefix = prefix

        def complete(self, messages: Sequence[Message], *, model: str, **_: object) -> Completion:
            return Completion(self.prefix + messages[-1]["content"], model, None, 0.0, True, "stop")

    try:
        p = get_provider("echo-test", prefix="> ")
        assert isinstance(p, Provider)
        assert p.complete([{"role": "user", "content": "hi"}], model="m").text == "> hi"
    finally:
        PROVIDERS.pop("echo-test")


def test_scripted_records_and_runs_out_loudly() -> None:
    p = get_provider("scripted", answers=["one"], cost_per_call=0.2)
    assert isinstance(p, ScriptedProvider)
    c = p.complete([{"role": "user", "content": "q"}], model="m", max_tokens=9)
    assert (c.text, c.cost_dollars, c.cost_known) == ("one", 0.2, True)
    assert p.calls[0].options["max_tokens"] == 9
    with pytest.raises(Exception, match="call 2 has none"):
        p.complete([{"role": "user", "content": "q"}], model="m")


def test_scripted_callable() -> None:
    p = ScriptedProvider(lambda msgs: msgs[-1]["content"].upper())
    assert p.complete([{"role": "user", "content": "abc"}], model="m").text == "ABC"


def test_anthropic_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'goalkeeper\[anthropic\]'"):
        get_provider("anthropic", api_key="k")


def test_openai_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(MissingExtraError, match=r"goalkeeper\[openai\]"):
        get_provider("openai", api_key="k")


def test_anthropic_needs_a_key() -> None:
    pytest.importorskip("anthropic")
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        get_provider("anthropic")
