"""PriceTable: overrides, GOALKEEPER_PRICES files, genai-prices, and loud unknowns."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from goalkeeper.errors import ConfigError
from goalkeeper.llm import PriceTable, UnknownPriceWarning, Usage

U = Usage(1_000_000, 1_000_000)


def test_override_wins() -> None:
    t = PriceTable({"gpt-4o": {"input_per_mtok": 1, "output_per_mtok": 1}})
    assert t.cost("gpt-4o", U) == (2.0, True)


def test_genai_prices_knows_public_models() -> None:
    pytest.importorskip("genai_prices")
    dollars, known = PriceTable().cost("gpt-4o", Usage(1000, 1000))
    assert known and dollars > 0
    dollars2, known2 = PriceTable().cost("openai/gpt-4o", Usage(1000, 1000))
    assert known2 and dollars2 == dollars


def test_unknown_warns_once_per_model() -> None:
    t = PriceTable()
    with pytest.warns(UnknownPriceWarning, match="GOALKEEPER_PRICES"):
        assert t.cost("local-llama", U) == (0.0, False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert t.cost("local-llama", U) == (0.0, False)


def test_zero_price_is_known() -> None:
    t = PriceTable({"smollm2": {"input_per_mtok": 0, "output_per_mtok": 0}})
    assert t.cost("smollm2", U) == (0.0, True)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_prices_file_from_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    f = tmp_path / f"prices{suffix}"
    data = {"house-model": {"input_per_mtok": 3, "output_per_mtok": 0}}
    f.write_text(json.dumps(data))  # JSON is valid YAML too
    monkeypatch.setenv("GOALKEEPER_PRICES", str(f))
    assert PriceTable().cost("house-model", Usage(1_000_000, 5)) == (3.0, True)
    # explicit overrides beat the file
    assert PriceTable({"house-model": {"input_per_mtok": 1, "output_per_mtok": 0}}).cost(
        "house-model", Usage(1_000_000, 0)) == (1.0, True)


def test_bad_price_config_names_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=r"prices\.m\.input_per_mtok"):
        PriceTable({"m": {"input_per_mtok": -1, "output_per_mtok": 0}})
    f = tmp_path / "p.json"
    f.write_text("{not json")
    monkeypatch.setenv("GOALKEEPER_PRICES", str(f))
    with pytest.raises(ConfigError, match="p.json"):
        PriceTable()
