"""model.schema: the JSON Schema is generated, shipped, committed, and agrees with the loader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from goalkeeper.model import load_spec, spec_from_data
from goalkeeper.model.schema import packaged_schema, spec_json_schema, spec_schema_text

jsonschema = pytest.importorskip("jsonschema")

REPO = Path(__file__).resolve().parents[2]


def test_committed_schema_matches_generated() -> None:
    committed = (REPO / "schemas" / "spec.schema.json").read_text(encoding="utf-8")
    assert committed == spec_schema_text(), "run the schema generator and commit schemas/spec.schema.json"


def test_packaged_schema_matches_generated() -> None:
    shipped = (REPO / "src" / "goalkeeper" / "schemas" / "spec.schema.json").read_text(encoding="utf-8")
    assert shipped == spec_schema_text()
    assert packaged_schema("spec") == spec_schema_text()


def test_schema_is_a_valid_2020_12_schema() -> None:
    schema = spec_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["required"]) >= {"goalkeeper", "goal", "facts"}


def validator() -> Any:
    return jsonschema.Draft202012Validator(json.loads(spec_schema_text()))


@pytest.mark.parametrize("name", ["web.yaml", "web.json", "minimal.yaml"])
def test_example_specs_validate_against_schema(specs_dir: Path, name: str) -> None:
    path = specs_dir / name
    data = yaml.safe_load(path.read_text())
    load_spec(path)  # the loader accepts it ...
    errors = list(validator().iter_errors(data))
    assert errors == [], [e.message for e in errors]  # ... and so does the schema


EXTRA_VALID: list[dict[str, Any]] = [
    {
        "goalkeeper": 1,
        "goal": {"n": {">=": 3, "<": 10}, "s": {"in": ["a", "b"]}},
        "facts": {
            "n": {"type": "int", "observe": {"command": ["wc", "-l", "f"], "parse": "number"}},
            "s": {"type": "str", "initial": "a", "assumption": True},
        },
        "actions": {"inc": {"effects": {"n": 5}, "cost": 0.5, "env": {"K": "v"}, "cwd": "."}},
        "policy": {"max_ticks": None, "observe_timeout": 2.5},
    },
]


@pytest.mark.parametrize("data", EXTRA_VALID)
def test_loader_valid_specs_are_schema_valid(data: dict[str, Any]) -> None:
    spec_from_data(data)
    assert list(validator().iter_errors(data)) == []


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("goalkeeper"),
        lambda d: d.update(actoins={}),
        lambda d: d["facts"]["done"].update(type="boolean"),
        lambda d: d.update(goal={"done": {"=~": 1}}),
        lambda d: d["facts"]["done"].update(observe={"command": "x", "parse": "xml"}),
        lambda d: d.update(actions={"a": {"effects": {"done": True}, "cost": 0}}),
        lambda d: d.update(policy={"max_ticks": 0}),
    ],
    ids=["no-version", "unknown-key", "bad-type", "bad-op", "bad-parse", "zero-cost", "zero-ticks"],
)
def test_schema_and_loader_both_reject(mutate: Any) -> None:
    d: dict[str, Any] = {"goalkeeper": 1, "goal": {"done": True}, "facts": {"done": {}}}
    mutate(d)
    assert list(validator().iter_errors(d)), "schema accepted an invalid spec"
    with pytest.raises(Exception):  # noqa: B017 - SpecError, checked in test_spec
        spec_from_data(d)
