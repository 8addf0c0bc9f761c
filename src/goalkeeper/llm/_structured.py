"""Structured answers: a pydantic model out of free text, or an honest "uncertain".

A model that answers garbage gets the validation error back and may try again
(``reasks`` times); after that the result is ``uncertain`` with ``value=None``,
never a guessed value and never an exception. Transport failures that survive
the SDK's retries are recorded the same way. Misconfiguration (missing key,
unknown model) still raises, because retrying cannot fix it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from ._types import Message, Provider, ProviderError

__all__ = ["Structured", "extract_json", "schema_instruction", "structured"]

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


@dataclass
class Structured(Generic[T]):
    """The parsed value or ``uncertain=True``; ``errors`` says why, ``raw`` keeps every answer."""

    value: T | None
    uncertain: bool
    attempts: int
    cost_dollars: float
    errors: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    cost_known: bool = True


MAX_ANSWER_CHARS = 200_000


def extract_json(text: str) -> Any:
    """The first JSON value in ``text``: whole text, a ```json fence, or the first ``{...}`` span."""
    body = _THINK.sub("", text).strip()
    if not body:
        raise ValueError("the answer is empty")
    if len(body) > MAX_ANSWER_CHARS:
        raise ValueError(f"the answer is {len(body)} characters; answer with one short JSON object")
    try:
        return json.loads(body)
    except RecursionError:
        raise ValueError("the answer nests too deeply to be a verdict") from None
    except ValueError:
        pass
    for m in _FENCE.finditer(body):
        try:
            return json.loads(m.group(1).strip())
        except (ValueError, RecursionError):  # RecursionError: '[' * 5000
            continue
    decoder = json.JSONDecoder()
    for i, ch in enumerate(body):
        if ch in "{[":
            try:
                value, _end = decoder.raw_decode(body, i)
            except RecursionError:
                break
            except ValueError:
                continue
            return value
    raise ValueError("the answer contains no complete JSON object")


def schema_instruction(schema: type[BaseModel]) -> str:
    return (
        "Answer with one JSON object only (no prose, no code fence) that validates against this "
        "JSON schema:\n" + json.dumps(schema.model_json_schema(), separators=(",", ":"))
    )


def _describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors()[:8]:
        loc = ".".join(str(p) for p in e["loc"]) or "<root>"
        parts.append(f"{loc}: {e['msg']}")
    return "; ".join(parts)


def structured(
    provider: Provider,
    model: str,
    messages: Sequence[Message],
    schema: type[T],
    *,
    reasks: int = 2,
    instruct: bool = True,
    **kw: Any,
) -> Structured[T]:
    """Ask until the answer validates as ``schema`` (at most ``1 + reasks`` calls).

    ``instruct`` states the schema in the (first) system message; ``kw`` goes to
    ``provider.complete`` (``max_tokens``, ``temperature``, ``timeout``).
    """
    convo: list[Message] = list(messages)
    if instruct:  # into the first system message: many chat templates want exactly one, first
        note = schema_instruction(schema)
        if convo and convo[0]["role"] == "system":
            convo[0] = {"role": "system", "content": convo[0]["content"] + "\n\n" + note}
        else:
            convo.insert(0, {"role": "system", "content": note})
    json_schema = schema.model_json_schema()
    out: Structured[T] = Structured(None, True, 0, 0.0)
    for _ in range(1 + max(0, reasks)):
        out.attempts += 1
        try:
            done = provider.complete(convo, model=model, json_schema=json_schema, **kw)
        except ProviderError as e:
            out.errors.append(str(e))
            return out
        out.cost_dollars = round(out.cost_dollars + done.cost_dollars, 8)
        out.cost_known = out.cost_known and done.cost_known
        out.raw.append(done.text)
        try:
            value = schema.model_validate(extract_json(done.text))
        except ValidationError as e:
            problem = f"the JSON does not fit the schema: {_describe(e)}"
        except ValueError as e:
            problem = f"no valid JSON: {e}"
        else:
            out.value, out.uncertain = value, False
            return out
        if done.finish_reason == "length":
            problem += " (the answer was cut off at the token limit: answer shorter)"
        out.errors.append(problem)
        convo += [
            {"role": "assistant", "content": done.text},
            {"role": "user", "content": f"That answer was rejected: {problem}. "
             "Reply again with only the corrected JSON object."},
        ]
    return out
