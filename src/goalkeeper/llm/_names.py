"""Model references: ``provider:model`` and ``agent:cli[:model]``, and "is this the same model?".

The judge must not be the maker. Names differ in spelling (``openai:gpt-4o``,
``openai/gpt-4o``, ``GPT-4o``), so the comparison is done on normalised ids.
Ollama-style tags (``llama3:8b``) survive: only a known provider prefix is split.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ModelRef", "model_key", "parse_model_ref", "same_model"]

AGENT_PREFIX = "agent"


@dataclass(frozen=True, slots=True)
class ModelRef:
    provider: str | None
    model: str | None
    agent: str | None = None


def _providers() -> set[str]:
    from ._registry import PROVIDERS

    return set(PROVIDERS)


def parse_model_ref(ref: str) -> ModelRef:
    """``"openai:gpt-4o"`` -> (openai, gpt-4o); ``"agent:claude:sonnet"`` -> agent claude, sonnet."""
    head, sep, rest = ref.partition(":")
    if sep and head == AGENT_PREFIX:
        cli, _, model = rest.partition(":")
        return ModelRef(AGENT_PREFIX, model or None, cli or None)
    if sep and head in _providers():
        return ModelRef(head, rest or None)
    return ModelRef(None, ref or None)


def model_key(ref: str | None) -> str | None:
    """A comparable id: provider and router prefixes dropped, lower case."""
    if not ref:
        return None
    parsed = parse_model_ref(ref.strip())
    name = parsed.model
    if name is None:
        return f"{AGENT_PREFIX}:{parsed.agent}" if parsed.agent else None
    name = name.lower()
    if "/" in name:  # "openai/gpt-4o", "anthropic/claude-..." as routers spell them
        name = name.rsplit("/", 1)[1]
    return name


def same_model(a: str | None, b: str | None) -> bool:
    ka, kb = model_key(a), model_key(b)
    return ka is not None and ka == kb
