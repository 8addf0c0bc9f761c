"""Fixtures for the LLM tests: a scripted local OpenAI-compatible server and a clean env."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAIServer, running_server

LLM_ENV = (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "GOALKEEPER_LLM_BASE_URL", "GOALKEEPER_LLM_API_KEY",
    "GOALKEEPER_PRICES", "ANTHROPIC_API_KEY", "GOALKEEPER_ANTHROPIC_API_KEY",
)


@pytest.fixture(autouse=True)
def clean_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reach a real endpoint by accident through the developer's environment."""
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    with running_server() as server:
        yield server
