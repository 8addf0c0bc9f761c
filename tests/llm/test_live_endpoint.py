"""Opt-in: run against any real OpenAI-compatible endpoint named by GOALKEEPER_TEST_LLM_BASE_URL.

Example (see docs/models.md): ``python -m llama_cpp.server --model SmolLM2-135M...gguf``
then ``GOALKEEPER_TEST_LLM_BASE_URL=http://127.0.0.1:8000/v1 pytest tests/llm/test_live_endpoint.py``.
A 135M model often fails to produce valid JSON; the contract tested is that the
result is then *uncertain*, never a crash and never a guessed verdict.
"""

from __future__ import annotations

import os

import pytest
from pydantic import BaseModel

from goalkeeper.llm import get_provider, structured

URL = os.environ.get("GOALKEEPER_TEST_LLM_BASE_URL")
MODEL = os.environ.get("GOALKEEPER_TEST_LLM_MODEL", "local")
pytestmark = pytest.mark.skipif(not URL, reason="set GOALKEEPER_TEST_LLM_BASE_URL to run against a real endpoint")


class Answer(BaseModel):
    answer: str


def test_live_completion_and_structured() -> None:
    llm = get_provider("openai", base_url=URL, api_key=os.environ.get("GOALKEEPER_TEST_LLM_API_KEY"),
                       prices={MODEL: {"input_per_mtok": 0, "output_per_mtok": 0}}, timeout=120)
    c = llm.complete([{"role": "user", "content": "Say hello."}], model=MODEL, max_tokens=16)
    assert isinstance(c.text, str) and c.cost_known
    res = structured(llm, MODEL, [{"role": "user", "content": 'Reply {"answer": "yes"}'}], Answer, max_tokens=64)
    assert res.attempts in (1, 2, 3)
    assert (res.value is not None) != res.uncertain
