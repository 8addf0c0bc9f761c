"""JSON Schema of the spec format, generated from the models."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .spec import Spec

__all__ = ["spec_json_schema", "spec_schema_text"]


def spec_json_schema() -> dict[str, Any]:
    schema = Spec.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://goalkeeper.dev/schemas/spec.schema.json"
    schema["title"] = "goalkeeper spec"
    return schema


def spec_schema_text() -> str:
    return json.dumps(spec_json_schema(), indent=2, sort_keys=True) + "\n"


def packaged_schema(name: str) -> str:
    """The schema file shipped inside the package (``spec`` or ``goal``)."""
    return resources.files("goalkeeper").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
