"""Dollars from reported token usage: config overrides first, then ``genai-prices`` (offline).

A model nobody knows the price of costs 0.0 with ``known=False`` and one
warning per model, never a silent zero: budgets see the flag and can refuse.
Overrides come from a mapping or from the JSON/YAML file named by
``GOALKEEPER_PRICES``::

    {"my-local-model": {"input_per_mtok": 0, "output_per_mtok": 0},
     "gpt-4o": {"input_per_mtok": 2.5, "output_per_mtok": 10}}
"""

from __future__ import annotations

import json
import logging
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigError
from ._types import Usage

__all__ = ["ModelPrice", "PriceTable", "UnknownPriceWarning"]

log = logging.getLogger("goalkeeper.llm.prices")
PRICES_ENV = "GOALKEEPER_PRICES"


class UnknownPriceWarning(UserWarning):
    """A model's price is unknown; its calls are counted as $0 and flagged ``cost_known=False``."""


class ModelPrice(BaseModel):
    """Dollars per million tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)

    def cost(self, usage: Usage) -> float:
        return (usage.input_tokens * self.input_per_mtok + usage.output_tokens * self.output_per_mtok) / 1e6


def _load_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"{PRICES_ENV}={path}: cannot read the price file ({e})") from None
    try:
        data = yaml.safe_load(text) if path.suffix in (".yaml", ".yml") else json.loads(text)
    except (ValueError, yaml.YAMLError) as e:
        raise ConfigError(f"{path}: not valid JSON/YAML ({e})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping {{model: {{input_per_mtok, output_per_mtok}}}}")
    return data


def _parse(overrides: Mapping[str, Any], source: str) -> dict[str, ModelPrice]:
    out: dict[str, ModelPrice] = {}
    for model, spec in overrides.items():
        if isinstance(spec, ModelPrice):
            out[str(model)] = spec
            continue
        try:
            out[str(model)] = ModelPrice.model_validate(spec)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ConfigError(
                f"{source}: prices.{model}{'.' + where if where else ''}: {first['msg']} "
                "(write {input_per_mtok: X, output_per_mtok: Y} in dollars per million tokens)"
            ) from None
    return out


class PriceTable:
    """Looks a model up in the overrides, then in genai-prices; remembers which it warned about."""

    def __init__(
        self,
        overrides: Mapping[str, Any] | None = None,
        *,
        use_env: bool = True,
        use_genai_prices: bool = True,
    ) -> None:
        table: dict[str, ModelPrice] = {}
        env_file = os.environ.get(PRICES_ENV) if use_env else None
        if env_file:
            table.update(_parse(_load_file(Path(env_file)), env_file))
        if overrides:
            table.update(_parse(overrides, "price overrides"))
        self.overrides = table
        self.use_genai_prices = use_genai_prices
        self._warned: set[str] = set()

    def _genai(self, model: str, usage: Usage) -> float | None:
        if not self.use_genai_prices:
            return None
        try:
            import genai_prices
        except ImportError:
            return None
        candidates: list[tuple[str, str | None]] = [(model, None)]
        if "/" in model:  # "openai/gpt-4o" as routers spell it
            provider, bare = model.split("/", 1)
            candidates += [(bare, provider), (bare, None)]
        gusage = genai_prices.Usage(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens)
        for ref, pid in candidates:
            try:
                calc = genai_prices.calc_price(gusage, ref, provider_id=pid)
            except (LookupError, ValueError):
                continue
            return float(calc.total_price)
        return None

    def lookup(self, model: str, usage: Usage) -> float | None:
        """The price, or None when neither the overrides nor genai-prices know ``model``."""
        price = self.overrides.get(model)
        if price is not None:
            return price.cost(usage)
        return self._genai(model, usage)

    def cost(self, model: str, usage: Usage | None, *, also: tuple[str, ...] = ()) -> tuple[float, bool]:
        """``(dollars, known)``; ``also`` names aliases to try (e.g. the model the server reported)."""
        if usage is None:
            self._warn(model, f"the server reported no token usage for model {model!r}; its cost is unknown")
            return 0.0, False
        for name in (model, *also):
            found = self.lookup(name, usage)
            if found is not None:
                return round(found, 8), True
        self._warn(
            model,
            f"no price for model {model!r}; counting it as $0 (cost_known=False). Set one in "
            f"{PRICES_ENV} (JSON/YAML {{{model!r}: {{input_per_mtok: X, output_per_mtok: Y}}}}) "
            "or pass prices= to the provider",
        )
        return 0.0, False

    def _warn(self, model: str, message: str) -> None:
        if model in self._warned:
            return
        self._warned.add(model)
        log.warning(message)
        warnings.warn(message, UnknownPriceWarning, stacklevel=3)
