"""Typed provider options: ``--oracle-option max_retries=0`` reaches the SDK as the int 0.

Options come as text from the command line and as JSON values from goal files.
Each provider declares a table (name -> :class:`Option`); :func:`coerce_options`
converts and checks every value against it, and an unknown name or a value of
the wrong type is a ``ConfigError`` that names the option, the expected type
and the value, never a ``TypeError`` from inside an SDK.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

__all__ = ["ORACLE_OPTIONS", "PROVIDER_OPTIONS", "Option", "coerce_option", "coerce_options", "declare_options"]

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
_INT = re.compile(r"[+-]?[0-9]{1,18}")


@dataclass(frozen=True, slots=True)
class Option:
    """One setting: its type (bool, int, float, str, dict, list, or a tuple of choices) and bounds."""

    type: type | tuple[str, ...]
    min: float | None = None
    help: str = ""

    def describe(self) -> str:
        if isinstance(self.type, tuple):
            return "one of " + ", ".join(self.type)
        name = {bool: "true or false", int: "an integer", float: "a number", str: "text",
                dict: "a JSON object", list: "a list (JSON array or words)"}[self.type]
        if self.min is not None:
            name += f" >= {self.min:g}"
        return name


PROVIDER_OPTIONS: dict[str, dict[str, Option]] = {}

# The LLM oracle's own settings, taken out before the rest reaches the provider
# (see goalkeeper.convergence.llm_oracle.llm_oracle_from_config).
ORACLE_OPTIONS: dict[str, Option] = {
    "max_tool_rounds": Option(int, 0, "tool calls the oracle may make per verdict"),
    "reasks": Option(int, 0, "re-asks after an answer that does not fit the schema"),
    "max_tokens": Option(int, 1, "answer length limit"),
    "temperature": Option(float, 0, "sampling temperature"),
}


def declare_options(provider: str, options: Mapping[str, Option]) -> None:
    """Declare ``provider``'s options (done by ``register_provider(name, options=...)``)."""
    PROVIDER_OPTIONS[provider] = dict(options)


def _fail(name: str, opt: Option, value: Any, where: str) -> ConfigError:
    shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
    return ConfigError(f"{where} {name}: expected {opt.describe()}, got {shown}")


def coerce_option(name: str, value: Any, opt: Option, where: str = "option") -> Any:
    """``value`` as ``opt`` says (text from a command line is converted), or ``ConfigError``."""
    t = opt.type
    text = value.strip() if isinstance(value, str) else None
    out: Any
    if value is None and t in (str, dict, list):
        return None  # "not set": the provider's default
    if isinstance(t, tuple):
        if value not in t:
            raise _fail(name, opt, value, where)
        return value
    if t is bool:
        if isinstance(value, bool):
            return value
        if text is not None and text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise _fail(name, opt, value, where)
    if t is int:
        if isinstance(value, int) and not isinstance(value, bool):
            out = value
        elif text is not None and _INT.fullmatch(text):
            out = int(text)
        else:
            raise _fail(name, opt, value, where)
    elif t is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            out = float(value)
        elif text is not None and len(text) <= 40:
            try:
                out = float(text)
            except ValueError:
                raise _fail(name, opt, value, where) from None
        else:
            raise _fail(name, opt, value, where)
        if not math.isfinite(out):
            raise _fail(name, opt, value, where)
    elif t is str:
        if not isinstance(value, str):
            raise _fail(name, opt, value, where)
        return value
    elif t is dict:
        if text is None:  # a mapping, or an object made for the job (e.g. a PriceTable) from code
            if isinstance(value, bool | int | float | list | tuple):
                raise _fail(name, opt, value, where)
            return value
        try:
            out = json.loads(text)
        except (ValueError, RecursionError):
            raise _fail(name, opt, value, where) from None
        if not isinstance(out, dict):
            raise _fail(name, opt, value, where)
        return out
    elif t is list:
        out = value
        if text is not None:
            try:
                out = json.loads(text) if text.startswith("[") else shlex.split(text)
            except (ValueError, RecursionError):
                raise _fail(name, opt, value, where) from None
        if not isinstance(out, list) or not all(isinstance(x, str) for x in out):
            raise _fail(name, opt, value, where)
        return out
    else:  # pragma: no cover - a table declared with an unsupported type
        raise ConfigError(f"{where} {name}: unsupported option type {t!r}")
    if opt.min is not None and out < opt.min:
        raise _fail(name, opt, value, where)
    return out


# Option values are stored in the goal file; a secret there would sit on disk.
_SECRET_NAME = re.compile(r"(?:^|_)(?:api_?key|key|token|secret|password|passwd|credentials?)$", re.I)
_SECRET_HEADER = re.compile(r"^(?:authorization|proxy-authorization|x-api-key|api-key|cookie)$", re.I)


def _refuse_secret(name: str, value: Any, where: str) -> None:
    if _SECRET_NAME.search(name):
        raise ConfigError(f"{where} {name}: a secret would be stored in the goal file; put it in an "
                          f"environment variable and pass {name}_env=NAME (the variable's name, not its value)")
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return
    if isinstance(value, Mapping):
        for k in value:
            if isinstance(k, str) and _SECRET_HEADER.match(k):
                raise ConfigError(f"{where} {name}: header {k!r} would store a secret in the goal file; "
                                  "set the key in the environment instead (GOALKEEPER_LLM_API_KEY is sent "
                                  "as the bearer token)")


def coerce_options(
    provider: str | None, values: Mapping[str, Any], *, table: Mapping[str, Option] | None = None,
    extra: Mapping[str, Option] | None = None, where: str = "option", stored: bool = False,
) -> dict[str, Any]:
    """Every value converted and checked against ``table`` (default: ``provider``'s declared
    one) plus ``extra``. A provider that declared nothing gets its values unchanged.

    ``stored``: the values go into a goal file, so a secret among them is refused
    (options given in code to ``get_provider`` stay in memory and may hold one)."""
    strict = table is not None or provider in PROVIDER_OPTIONS
    known = dict(table if table is not None else PROVIDER_OPTIONS.get(provider or "", {}))
    known.update(extra or {})
    out: dict[str, Any] = {}
    for name, value in values.items():
        if stored:
            _refuse_secret(name, value, where)
        opt = known.get(name)
        if opt is None and not strict:  # a third-party provider that declared nothing
            out[name] = value
            continue
        if opt is None:
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            owner = f" for {provider}" if provider else ""
            raise ConfigError(f"{where} {name}: unknown option{owner}{hint}; known: {', '.join(sorted(known))}")
        out[name] = coerce_option(name, value, opt, where)
    return out
