"""OpenAI-compatible chat completions on the official ``openai`` SDK.

One provider covers OpenAI, vLLM, llama.cpp's server, Ollama, LM Studio and
proxies: they all speak ``POST {base_url}/chat/completions``. Retries with
backoff on 408/409/429/5xx and dropped connections are the SDK's own
(``max_retries``, honouring ``Retry-After``); we only map what is left into
:class:`ProviderError` (the model/network failed) or :class:`ConfigError`
(the key, URL or model name is wrong).

Configuration, first hit wins: arguments, ``GOALKEEPER_LLM_BASE_URL`` /
``GOALKEEPER_LLM_API_KEY``, ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``. A custom
``base_url`` without a key sends a placeholder key (local servers ignore it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigError, MissingExtraError
from ._options import Option
from ._prices import PriceTable
from ._registry import register_provider
from ._types import Completion, Message, ProviderError, Usage

if TYPE_CHECKING:
    import openai

__all__ = ["OpenAIProvider"]

KEY_ENVS = ("GOALKEEPER_LLM_API_KEY", "OPENAI_API_KEY")
URL_ENVS = ("GOALKEEPER_LLM_BASE_URL", "OPENAI_BASE_URL")
LOCAL_PLACEHOLDER_KEY = "sk-no-key-needed"
JsonMode = Literal["json_schema", "json_object", "none"]


def _first_env(names: Sequence[str]) -> str | None:
    for n in names:
        v = os.environ.get(n)
        if v:
            return v
    return None


def _to_wire(messages: Sequence[Message]) -> list[dict[str, str]]:
    """Our text-only ``tool`` role becomes a user turn (a bare tool message needs a tool_call_id)."""
    out = []
    for m in messages:
        if m["role"] == "tool":
            out.append({"role": "user", "content": "[tool result]\n" + m["content"]})
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out


OPTIONS = {
    "base_url": Option(str, help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1"),
    "api_key": Option(str, help="from code only; on the command line or in a goal use api_key_env"),
    "api_key_env": Option(str, help="name of the environment variable holding the key (default GOALKEEPER_LLM_API_KEY)"),
    "timeout": Option(float, 0, "seconds per request"),
    "max_retries": Option(int, 0, "SDK retries on 408/409/429/5xx"),
    "prices": Option(dict, help="per-model prices, see docs/models.md"),
    "json_mode": Option(("json_schema", "json_object", "none")),
    "default_headers": Option(dict),
}


@register_provider("openai", options=OPTIONS)
class OpenAIProvider:
    """``complete()`` over any OpenAI-compatible endpoint; cost from usage and a :class:`PriceTable`."""

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 2,
        prices: PriceTable | Mapping[str, Any] | None = None,
        json_mode: JsonMode = "json_schema",
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        try:
            import openai
        except ImportError:
            raise MissingExtraError("openai", "openai") from None
        self.base_url = base_url or _first_env(URL_ENVS)
        key = api_key or _first_env((api_key_env,) if api_key_env else KEY_ENVS)
        if not key:
            if self.base_url is None:
                raise ConfigError(
                    "no API key for the OpenAI provider; set GOALKEEPER_LLM_API_KEY (or OPENAI_API_KEY), "
                    "or point GOALKEEPER_LLM_BASE_URL at a local OpenAI-compatible server"
                )
            key = LOCAL_PLACEHOLDER_KEY
        if json_mode not in ("json_schema", "json_object", "none"):
            raise ConfigError(f"json_mode {json_mode!r}: use json_schema, json_object or none")
        self.json_mode: JsonMode = json_mode
        self.timeout = timeout
        self.prices = prices if isinstance(prices, PriceTable) else PriceTable(prices)
        self._openai = openai
        self.client: openai.OpenAI = openai.OpenAI(
            api_key=key,
            base_url=self.base_url,
            timeout=timeout,
            max_retries=max_retries,
            default_headers=dict(default_headers) if default_headers else None,
        )

    def _response_format(self, json_schema: dict[str, Any] | None) -> dict[str, Any] | None:
        if json_schema is None or self.json_mode == "none":
            return None
        if self.json_mode == "json_object":
            return {"type": "json_object"}
        name = str(json_schema.get("title") or "answer")
        safe = "".join(c if c.isalnum() or c in "_-" else "_" for c in name)[:64]
        return {"type": "json_schema", "json_schema": {"name": safe, "schema": json_schema, "strict": False}}

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
        oa = self._openai
        optional: dict[str, Any] = {}  # only what is set: servers differ in what they accept
        if max_tokens is not None:
            optional["max_tokens"] = max_tokens
        if temperature is not None:
            optional["temperature"] = temperature
        response_format = self._response_format(json_schema)
        if response_format is not None:
            optional["response_format"] = response_format
        try:
            resp = self.client.chat.completions.create(
                model=model,
                messages=_to_wire(messages),  # type: ignore[arg-type]
                timeout=timeout if timeout is not None else self.timeout,
                **optional,
            )
        except (oa.AuthenticationError, oa.PermissionDeniedError) as e:
            raise ConfigError(
                f"{self._where()} rejected the API key (HTTP {e.status_code}); "
                f"set GOALKEEPER_LLM_API_KEY or OPENAI_API_KEY"
            ) from None
        except oa.NotFoundError:
            raise ConfigError(
                f"{self._where()} has no model {model!r} or no /chat/completions endpoint; "
                "check the model name and GOALKEEPER_LLM_BASE_URL (it usually ends in /v1)"
            ) from None
        except oa.APITimeoutError:
            raise ProviderError(self.name, model, f"timed out after {timeout or self.timeout:g}s") from None
        except oa.APIStatusError as e:
            raise ProviderError(self.name, model, f"HTTP {e.status_code}: {_short(e.message)}",
                                status=e.status_code) from None
        except oa.APIConnectionError as e:
            raise ProviderError(self.name, model, f"connection failed: {_short(str(e.__cause__ or e))}") from None
        except (oa.OpenAIError, ValueError) as e:
            raise ProviderError(self.name, model, f"unreadable response: {_short(str(e))}") from None
        return self._completion(resp, model)

    def _completion(self, resp: openai.types.chat.ChatCompletion, model: str) -> Completion:
        if not getattr(resp, "choices", None):
            raise ProviderError(self.name, model, "the response has no choices")
        choice = resp.choices[0]
        text = choice.message.content if choice.message is not None else None
        usage = None
        if resp.usage is not None:
            usage = Usage(int(resp.usage.prompt_tokens or 0), int(resp.usage.completion_tokens or 0))
        reported = str(resp.model or model)
        cost, known = self.prices.cost(model, usage, also=(reported,) if reported != model else ())
        return Completion(
            text=text or "",
            model=reported,
            usage=usage,
            cost_dollars=cost,
            cost_known=known,
            finish_reason=choice.finish_reason,
        )

    def _where(self) -> str:
        return f"the OpenAI-compatible server at {self.base_url}" if self.base_url else "the OpenAI API"


def _short(text: str, n: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"
