"""model.state: a state must name every fact (or rely on `initial`) with a fitting value."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.errors import StateError
from goalkeeper.model import Spec, complete_state, load_spec, load_state


@pytest.fixture
def spec(specs_dir: Path) -> Spec:
    return load_spec(specs_dir / "web.yaml")


FULL = {"image_built": False, "deployed": False, "lcp_ms": 3100.5}


def test_initial_values_fill_missing_facts(spec: Spec) -> None:
    assert complete_state(spec, FULL) == {**FULL, "env": "staging", "retries": 0}


def test_given_values_override_initial(spec: Spec) -> None:
    assert complete_state(spec, {**FULL, "env": "prod"})["env"] == "prod"


def test_values_are_coerced_to_fact_type(spec: Spec) -> None:
    out = complete_state(spec, {**FULL, "lcp_ms": 3000, "retries": 2.0})
    assert out["lcp_ms"] == 3000.0 and isinstance(out["lcp_ms"], float)
    assert out["retries"] == 2 and isinstance(out["retries"], int)


def test_missing_facts_without_initial_are_errors(spec: Spec) -> None:
    with pytest.raises(StateError) as ei:
        complete_state(spec, {"deployed": True}, source="s.json")
    text = str(ei.value)
    assert "s.json: image_built: missing" in text
    assert "s.json: lcp_ms: missing" in text
    assert "env" not in text and "retries" not in text


def test_unknown_fact_with_did_you_mean(spec: Spec) -> None:
    with pytest.raises(StateError) as ei:
        complete_state(spec, {**FULL, "deployd": True}, source="s.json")
    assert str(ei.value) == "s.json: deployd: unknown fact (did you mean deployed?)"


@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("deployed", 1, "expected true or false, got int 1"),
        ("lcp_ms", "fast", "expected a number, got str 'fast'"),
        ("retries", True, "expected an integer, got bool True"),
        ("retries", 1.5, "expected an integer, got float 1.5"),
        ("env", 3, "expected a string, got int 3"),
    ],
)
def test_wrong_types_name_source_and_key(spec: Spec, key: str, value: object, fragment: str) -> None:
    with pytest.raises(StateError) as ei:
        complete_state(spec, {**FULL, key: value}, source="s.json")
    assert str(ei.value) == f"s.json: {key}: {fragment}"


def test_null_value_is_an_error_without_allow_unknown(spec: Spec) -> None:
    with pytest.raises(StateError) as ei:
        complete_state(spec, {**FULL, "deployed": None}, source="s.json")
    assert str(ei.value) == "s.json: deployed: expected true or false, got null"


def test_all_problems_reported_at_once(spec: Spec) -> None:
    with pytest.raises(StateError) as ei:
        complete_state(spec, {"deployed": "yes", "nope": 1, "lcp_ms": 1.0})
    lines = str(ei.value).splitlines()
    assert len(lines) == 3
    assert {ln.split(": ")[1] for ln in lines} == {"deployed", "nope", "image_built"}


def test_unknown_values_only_with_allow_unknown(spec: Spec) -> None:
    out = complete_state(spec, {**FULL, "deployed": None}, allow_unknown=True)
    assert out["deployed"] is None
    with pytest.raises(StateError):
        complete_state(spec, {**FULL, "deployed": None})


def test_load_state_from_file(spec: Spec, write_state: Callable[..., Path]) -> None:
    p = write_state(FULL)
    assert load_state(spec, p)["env"] == "staging"


def test_load_state_wrong_type_names_file_and_key(spec: Spec, write_state: Callable[..., Path]) -> None:
    p = write_state({**FULL, "deployed": "true"})
    with pytest.raises(StateError) as ei:
        load_state(spec, p)
    assert str(ei.value) == f"{p}: deployed: expected true or false, got str 'true'"


def test_load_state_missing_file(spec: Spec, tmp_path: Path) -> None:
    with pytest.raises(StateError, match="file not found"):
        load_state(spec, tmp_path / "none.json")


def test_load_state_invalid_json_has_line(spec: Spec, write_state: Callable[..., Path]) -> None:
    p = write_state('{\n  "deployed": true,\n  oops\n}')
    with pytest.raises(StateError) as ei:
        load_state(spec, p)
    assert str(ei.value).startswith(f"{p}:3: invalid JSON")


@pytest.mark.parametrize("raw", ["[]", "3", '"x"', "null"])
def test_load_state_needs_an_object(spec: Spec, write_state: Callable[..., Path], raw: str) -> None:
    with pytest.raises(StateError, match="a state is a JSON object"):
        load_state(spec, write_state(raw))


def test_load_state_directory(spec: Spec, tmp_path: Path) -> None:
    with pytest.raises(StateError, match="cannot read"):
        load_state(spec, tmp_path)
