"""The provider contract: messages in, one :class:`Completion` out, with usage and cost.

Kept free of any SDK import so that the oracle, the GOAP runtime and tests can
type against it without the ``openai``/``anthropic`` extras installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

from ..errors import GoalkeeperError

__all__ = ["Completion", "Message", "Provider", "ProviderError", "Role", "Usage"]

Role = Literal["system", "user", "assistant", "tool"]


class Message(TypedDict):
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens as the server reported them (never estimated)."""

    input_tokens: int
    output_tokens: int


@dataclass(frozen=True, slots=True)
class Completion:
    """One answer. ``cost_known=False`` means the price is a guess (0.0): budgets must flag it."""

    text: str
    model: str
    usage: Usage | None
    cost_dollars: float
    cost_known: bool
    finish_reason: str | None


class ProviderError(GoalkeeperError):
    """The call failed after the SDK's own retries (timeout, 5xx, 429, dropped connection).

    The model or the network misbehaved, not the configuration: ``structured``
    turns it into an "uncertain" result. Misconfiguration raises ConfigError.
    """

    def __init__(self, provider: str, model: str, detail: str, *, status: int | None = None) -> None:
        self.provider = provider
        self.model = model
        self.status = status
        self.detail = detail
        super().__init__(f"{provider} call to model {model!r} failed: {detail}")


@runtime_checkable
class Provider(Protocol):
    """Anything that turns messages into a :class:`Completion`; registered by name."""

    name: str

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> Completion: ...
