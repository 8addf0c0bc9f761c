"""``goalkeeper schema spec|goal|heartbeat|config|events``: print a JSON Schema.

Every schema is shipped inside the package (``goalkeeper/schemas/``) and in the
repository's ``schemas/``; the tests check that both copies equal what the
models generate (spec, goal, heartbeat, config) or, for ``events``, the table
in ``_event_schema.py`` (events are records, not models), and that real event
streams validate against it. Regenerate heartbeat, config and events with
``python -m goalkeeper.cli.schema --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..model.schema import packaged_schema

__all__ = ["GENERATED", "command", "generated_text", "heartbeat_json_schema"]

NAMES = ("spec", "goal", "heartbeat", "config", "events")


# What each key of a heartbeat config means (the models in convergence/heartbeat.py carry no text).
_HEARTBEAT_DOCS: dict[str, dict[str, str]] = {
    "": {
        "workspace": "folder the scans run in, relative to the config file (default: the file's folder)",
        "dollarsPerHour": "cap on the maxDollars that goals created by scans reserve in any rolling hour; past it a "
                          "failing scan files a triage item instead (null: no cap)",
        "scans": "the scans, run in order on every round",
    },
    "Scan": {
        "name": "the scan's name; while an item for it is pending (or its goal is live) it is not filed again",
        "command": "argv list, or a string split like a shell would (no shell runs)",
        "type": "judged like a stopping condition of this type; inferred from the command when left out",
        "threshold": "percent, for type coverage_threshold",
        "timeout": "per-run timeout ('10m', or seconds)",
        "onFail": "triage: file a triage item; goal: create a goal from the goal section (or a triage item past "
                  "the hourly dollar cap)",
        "severity": "severity of the triage item",
        "goal": "with onFail: goal, the goal to create; its stopping condition is this scan",
    },
    "ScanGoal": {
        "objective": "the goal's objective, given to the maker",
        "maker": "the maker command (argv list or a string split like a shell would)",
        "maxIterations": "the goal's iteration budget",
        "maxDollars": "the goal's dollar budget, reserved against dollarsPerHour",
        "maxDuration": "the goal's active-time budget ('30m')",
        "run": "run the goal at once, in the heartbeat process (false: leave it active for `goal run`)",
    },
}


def heartbeat_json_schema() -> dict[str, Any]:
    from ..convergence.heartbeat import HeartbeatConfig

    schema = HeartbeatConfig.model_json_schema(mode="validation", by_alias=True)
    for where, docs in _HEARTBEAT_DOCS.items():
        props = (schema if not where else schema["$defs"][where])["properties"]
        for key, text in docs.items():
            props[key]["description"] = text
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://goalkeeper.dev/schemas/heartbeat.schema.json"
    schema["title"] = "goalkeeper heartbeat config"
    schema["description"] = (
        "The file `goalkeeper heartbeat CONFIG` reads (YAML or JSON): scans judged like stopping conditions; "
        "a failing scan files a triage item (onFail: triage) or creates a goal (onFail: goal), capped by "
        "dollarsPerHour. See docs/cli.md (The heartbeat config)."
    )
    return schema


def _text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def generated_text(name: str) -> str:
    """The schema ``name`` as the models generate it now."""
    if name == "spec":
        from ..model.schema import spec_schema_text

        return spec_schema_text()
    if name == "goal":
        from ..convergence.schema import goal_schema_text

        return goal_schema_text()
    if name == "heartbeat":
        return _text(heartbeat_json_schema())
    if name == "config":
        from ..config import config_schema_text

        return config_schema_text()
    if name == "events":
        from ._event_schema import events_schema_text

        return events_schema_text()
    raise KeyError(name)


GENERATED = NAMES


@click.command("schema")
@click.argument("which", type=click.Choice(NAMES), default="spec")
def command(which: str) -> None:
    """Print the JSON Schema of the spec (default), goal, heartbeat config, config file, or events format."""
    click.echo(packaged_schema(which), nl=False)


if __name__ == "__main__":  # pragma: no cover - maintenance helper
    if "--write" in sys.argv:
        pkg = Path(__file__).resolve().parent.parent / "schemas"
        repo = Path(__file__).resolve().parents[3] / "schemas"
        for name in ("heartbeat", "config", "events"):
            for d in (pkg, repo):
                (d / f"{name}.schema.json").write_text(generated_text(name), encoding="utf-8")
                print(f"wrote {d / f'{name}.schema.json'}")
