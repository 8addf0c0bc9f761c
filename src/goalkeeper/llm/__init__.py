"""LLM providers behind one small contract, with cost tracking and validated structured output.

Typical use::

    from goalkeeper.llm import get_provider, structured
    llm = get_provider("openai")            # GOALKEEPER_LLM_BASE_URL / _API_KEY or OPENAI_*
    res = structured(llm, "gpt-4o-mini", [{"role": "user", "content": "..."}], Verdict)
    if res.uncertain: ...                    # never a guessed value

Providers: ``openai`` (any OpenAI-compatible server; extra ``goalkeeper[openai]``),
``anthropic`` (extra ``goalkeeper[anthropic]``), ``scripted`` (a test double).
"""

# importing the built-ins registers them (the SDKs themselves load lazily)
from ._anthropic import AnthropicProvider
from ._names import ModelRef, model_key, parse_model_ref, same_model
from ._openai import OpenAIProvider
from ._options import ORACLE_OPTIONS, PROVIDER_OPTIONS, Option, coerce_option, coerce_options
from ._prices import ModelPrice, PriceTable, UnknownPriceWarning
from ._registry import (
    ENTRY_POINT_GROUP,
    PROVIDERS,
    ProviderFactory,
    get_provider,
    register_provider,
)
from ._scripted import ScriptedCall, ScriptedProvider
from ._structured import Structured, extract_json, schema_instruction, structured
from ._types import Completion, Message, Provider, ProviderError, Role, Usage

__all__ = [
    "ENTRY_POINT_GROUP",
    "ORACLE_OPTIONS",
    "PROVIDERS",
    "PROVIDER_OPTIONS",
    "AnthropicProvider",
    "Completion",
    "Message",
    "ModelPrice",
    "ModelRef",
    "Option",
    "OpenAIProvider",
    "PriceTable",
    "Provider",
    "ProviderError",
    "ProviderFactory",
    "Role",
    "ScriptedCall",
    "ScriptedProvider",
    "Structured",
    "UnknownPriceWarning",
    "Usage",
    "coerce_option",
    "coerce_options",
    "extract_json",
    "get_provider",
    "model_key",
    "parse_model_ref",
    "register_provider",
    "same_model",
    "schema_instruction",
    "structured",
]
