"""A scripted LLM shipped with the package, so users can test oracles and planners offline.

Answers come from a list (strings, or exceptions to raise) or from a callable
that sees the messages. Every call is recorded in ``calls``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._registry import register_provider
from ._types import Completion, Message, ProviderError, Usage

__all__ = ["ScriptedCall", "ScriptedProvider"]

Answer = str | BaseException
AnswerFn = Callable[[Sequence[Message]], Answer]
_NO_TOKENS = Usage(0, 0)


@dataclass(frozen=True, slots=True)
class ScriptedCall:
    messages: tuple[Message, ...]
    model: str
    options: dict[str, Any] = field(default_factory=dict)


@register_provider("scripted")
class ScriptedProvider:
    """Plays ``answers`` in order (or asks ``answers(messages)``); running out is a ProviderError."""

    name = "scripted"

    def __init__(
        self,
        answers: Sequence[Answer] | AnswerFn = (),
        *,
        cost_per_call: float = 0.0,
        cost_known: bool = True,
        usage: Usage | None = _NO_TOKENS,
        finish_reason: str | None = "stop",
    ) -> None:
        self.answers: Sequence[Answer] | AnswerFn = answers if callable(answers) else list(answers)
        self.cost_per_call = cost_per_call
        self.cost_known = cost_known
        self.usage = usage
        self.finish_reason = finish_reason
        self.calls: list[ScriptedCall] = []

    def _next(self, messages: Sequence[Message], model: str) -> Answer:
        if callable(self.answers):
            return self.answers(messages)
        n = len(self.calls) - 1
        if n >= len(self.answers):
            return ProviderError(self.name, model, f"the script has {len(self.answers)} answers; call {n + 1} has none")
        return self.answers[n]

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> Completion:
        opts = {"json_schema": json_schema, "max_tokens": max_tokens, "temperature": temperature, "timeout": timeout}
        self.calls.append(ScriptedCall(tuple(messages), model, opts))
        answer = self._next(messages, model)
        if isinstance(answer, BaseException):
            raise answer
        return Completion(answer, model, self.usage, self.cost_per_call, self.cost_known, self.finish_reason)
