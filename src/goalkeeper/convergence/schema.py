"""JSON Schema of the goal file, generated from :class:`~goalkeeper.convergence.goal.Goal`.

The same text is shipped as ``goalkeeper/schemas/goal.schema.json`` and
``schemas/goal.schema.json``; regenerate both with
``python -m goalkeeper.convergence.schema --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .goal import Goal

__all__ = ["goal_json_schema", "goal_schema_text"]


def goal_json_schema() -> dict[str, Any]:
    schema = Goal.model_json_schema(mode="validation", by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://goalkeeper.dev/schemas/goal.schema.json"
    schema["title"] = "goalkeeper goal"
    schema["description"] = (
        "One goal of the maker-oracle convergence loop, stored at .goalkeeper/goals/<goalId>.json. "
        "Files without schemaVersion (the common goal-convergence shape) are migrated on load."
    )
    schema.setdefault("properties", {})["mac"] = {
        "type": "string", "pattern": "^[0-9a-f]{64}$",
        "description": "HMAC-SHA256 of the rest of the file under the state home's key (written by goalkeeper; "
                       "absent from exports)",
    }
    return schema


def goal_schema_text() -> str:
    return json.dumps(goal_json_schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # pragma: no cover - maintenance helper
    text = goal_schema_text()
    if "--write" in sys.argv:
        pkg = Path(__file__).resolve().parent.parent / "schemas" / "goal.schema.json"
        repo = Path(__file__).resolve().parents[3] / "schemas" / "goal.schema.json"
        for p in (pkg, repo):
            p.write_text(text, encoding="utf-8")
            print(f"wrote {p}")
    else:
        sys.stdout.write(text)
