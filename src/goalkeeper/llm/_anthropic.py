"""Native Anthropic Messages API (extra ``goalkeeper[anthropic]``).

System messages are lifted into ``system``; our text-only ``tool`` turns and
consecutive same-role turns are merged into alternating user/assistant turns.
The JSON schema is not sent as a parameter: ``structured`` already states it
in the prompt and validates the answer, which works on every model version.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError, MissingExtraError
from ._options import Option
from ._prices import PriceTable
from ._registry import register_provider
from ._types import Completion, Message, ProviderError, Usage

__all__ = ["AnthropicProvider"]

DEFAULT_MAX_TOKENS = 4096


def _split(messages: Sequence[Message]) -> tuple[str, list[dict[str, str]]]:
    system: list[str] = []
    turns: list[dict[str, str]] = []
    for m in messages:
        if m["role"] == "system":
            system.append(m["content"])
            continue
        role = "assistant" if m["role"] == "assistant" else "user"
        content = ("[tool result]\n" + m["content"]) if m["role"] == "tool" else m["content"]
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n\n" + content
        else:
            turns.append({"role": role, "content": content})
    if not turns or turns[0]["role"] != "user":
        turns.insert(0, {"role": "user", "content": "(begin)"})
    return "\n\n".join(system), turns


OPTIONS = {
    "api_key": Option(str, help="from code only; on the command line or in a goal use api_key_env"),
    "api_key_env": Option(str, help="name of the environment variable holding the key (default ANTHROPIC_API_KEY)"),
    "base_url": Option(str),
    "timeout": Option(float, 0, "seconds per request"),
    "max_retries": Option(int, 0, "SDK retries on 429/5xx"),
    "prices": Option(dict, help="per-model prices, see docs/models.md"),
}


@register_provider("anthropic", options=OPTIONS)
class AnthropicProvider:
    """``complete()`` on the Anthropic SDK; the SDK retries 429/5xx with backoff."""

    name = "anthropic"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        api_key_env: str | None = None,
        base_url: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 2,
        prices: PriceTable | Mapping[str, Any] | None = None,
    ) -> None:
        try:
            import anthropic
        except ImportError:
            raise MissingExtraError("anthropic", "anthropic") from None
        if api_key_env:
            key = api_key or os.environ.get(api_key_env)
        else:
            key = api_key or os.environ.get("GOALKEEPER_ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_API_KEY")
        if not key:
            raise ConfigError("no API key for the Anthropic provider; set ANTHROPIC_API_KEY")
        self._anthropic = anthropic
        self.timeout = timeout
        self.prices = prices if isinstance(prices, PriceTable) else PriceTable(prices)
        self.client = anthropic.Anthropic(
            api_key=key,
            base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL") or None,
            timeout=timeout,
            max_retries=max_retries,
        )

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
        an = self._anthropic
        system, turns = _split(messages)
        try:
            optional: dict[str, Any] = {}
            if system:
                optional["system"] = system
            if temperature is not None:  # sent raw: not a typed parameter in every SDK version
                optional["extra_body"] = {"temperature": temperature}
            resp = self.client.messages.create(
                model=model,
                messages=turns,  # type: ignore[arg-type]
                max_tokens=max_tokens or DEFAULT_MAX_TOKENS,
                timeout=timeout if timeout is not None else self.timeout,
                **optional,
            )
        except (an.AuthenticationError, an.PermissionDeniedError):
            raise ConfigError("Anthropic rejected the API key; set ANTHROPIC_API_KEY") from None
        except an.NotFoundError:
            raise ConfigError(f"Anthropic has no model {model!r}; check the model name") from None
        except an.APITimeoutError:
            raise ProviderError(self.name, model, f"timed out after {timeout or self.timeout:g}s") from None
        except an.APIStatusError as e:
            raise ProviderError(self.name, model, f"HTTP {e.status_code}: {e.message}", status=e.status_code) from None
        except an.APIConnectionError as e:
            raise ProviderError(self.name, model, f"connection failed: {e}") from None
        except (an.AnthropicError, ValueError) as e:
            raise ProviderError(self.name, model, f"unreadable response: {e}") from None
        text = "".join(getattr(b, "text", "") for b in resp.content if getattr(b, "type", "") == "text")
        usage = Usage(int(resp.usage.input_tokens or 0), int(resp.usage.output_tokens or 0)) if resp.usage else None
        cost, known = self.prices.cost(model, usage, also=(resp.model,) if resp.model != model else ())
        finish = {"max_tokens": "length", "end_turn": "stop"}.get(str(resp.stop_reason), resp.stop_reason)
        return Completion(text, str(resp.model or model), usage, cost, known, finish)
