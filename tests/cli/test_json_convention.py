"""One JSON convention (docs/json.md): camelCase keys, one document per --json, event names
``subject.past_participle``, and real event logs and streams valid against schemas/events.schema.json."""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from goalkeeper.cli._event_schema import GOAL_EVENTS, RUN_EVENTS, events_json_schema
from goalkeeper.cli.schema import generated_text
from goalkeeper.config import ConfigFile
from goalkeeper.convergence.heartbeat import load_config
from goalkeeper.store.atomic import read_jsonl
from goalkeeper.store.triage import file_item
from tests.cli.test_exit_codes import SPEC
from tests.cli.test_goal_view import _new_goal

Run = Callable[..., subprocess.CompletedProcess[str]]
REPO = Path(__file__).resolve().parents[2]
CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*$")
EVENT = re.compile(r"^[a-z]+\.[a-z_]+$")


def _camel_keys(obj: Any, where: str, *, skip: tuple[str, ...] = ()) -> None:
    """Every key of every object is camelCase, except below keys that hold the spec's own names."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert CAMEL.match(k), f"{where}: key {k!r} is not camelCase"
            if k not in skip:
                _camel_keys(v, f"{where}.{k}", skip=skip)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _camel_keys(v, f"{where}[{i}]", skip=skip)


def _one(r: subprocess.CompletedProcess[str]) -> Any:
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1, r.stdout  # exactly one JSON document
    return json.loads(lines[0])


@pytest.mark.parametrize("name", ["spec", "goal", "heartbeat", "config", "events"])
def test_shipped_schemas_are_what_the_code_generates(run_cli: Run, name: str) -> None:
    text = generated_text(name)
    assert (REPO / "src" / "goalkeeper" / "schemas" / f"{name}.schema.json").read_text() == text
    assert (REPO / "schemas" / f"{name}.schema.json").read_text() == text
    assert run_cli("schema", name).stdout == text
    jsonschema.Draft202012Validator.check_schema(json.loads(text))


def test_docs_name_every_event_and_names_follow_the_convention() -> None:
    doc = (REPO / "docs" / "json.md").read_text()
    for name in [*GOAL_EVENTS, *RUN_EVENTS, "goal.deleted"]:
        assert EVENT.match(name), name
        assert f"`{name}`" in doc, f"docs/json.md does not describe {name}"


@pytest.mark.deep
def test_real_goal_and_run_events_validate(run_cli: Run, tmp_path: Path, goalkeeper_home: Path) -> None:
    schema = events_json_schema()
    gid, _ = _new_goal(run_cli, tmp_path / "g")
    streamed = run_cli("goal", "run", gid, "--json")
    assert streamed.returncode == 0, streamed.stderr
    events = [json.loads(x) for x in streamed.stdout.splitlines()]
    on_disk = list(read_jsonl(goalkeeper_home / "goals" / f"{gid}.events.jsonl", root=goalkeeper_home))
    assert {e["event"] for e in events} >= {"iteration.started", "maker.finished", "conditions.finished",
                                            "goal.converged"}
    for e in [*events, *on_disk]:
        jsonschema.validate(e, schema)
        _camel_keys({k: v for k, v in e.items() if k not in ("config", "record", "goalFields")}, e["event"])

    spec = tmp_path / "r" / "spec.yaml"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    ran = run_cli("run", spec, "--json", cwd=spec.parent)
    assert ran.returncode == 0, ran.stderr
    run_events = [json.loads(x) for x in ran.stdout.splitlines()]
    assert run_events[-1]["event"] == "run.reached"
    run_id = run_events[0]["runId"]
    disk = list(read_jsonl(goalkeeper_home / "runs" / run_id / "events.jsonl", root=goalkeeper_home))
    for e in [*run_events, *disk]:
        jsonschema.validate(e, schema)
    # a made-up event or a snake_case key is refused by the schema
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**run_events[-1], "spec_path": "x"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**run_events[-1], "event": "run_started"}, schema)

    logs = [json.loads(x) for x in run_cli("runs", "logs", run_id, "--json").stdout.splitlines()]
    assert [x["event"] for x in logs if x["event"] != "output.logged"] == [e["event"] for e in disk]
    assert any(x["event"] == "output.logged" and x["action"] == "build" for x in logs)
    human = run_cli("runs", "logs", run_id)
    assert human.returncode == 0 and "build" in human.stdout and "deploy" in human.stdout
    assert run_cli("runs", "logs", run_id, "-f").returncode == 0  # ended: print, exit with its code
    assert run_cli("runs", "logs", "run-nothere").returncode == 1

    # one camelCase object (or list) from every read command
    facts = ("facts", "observed", "believed", "initial", "unknown", "context", "expects", "claimed")
    for args in (("validate", spec, "--json"), ("plan", spec, "--observe", "--json"),
                 ("observe", spec, "--json"), ("goal", "status", gid, "--json"), ("goal", "list", "--json"),
                 ("runs", "list", "--json"), ("runs", "show", run_id, "--json"), ("triage", "list", "--json")):
        _camel_keys(_one(run_cli(*args, cwd=spec.parent)), " ".join(map(str, args)), skip=facts)


def test_triage_json_is_camel_case(run_cli: Run, goalkeeper_home: Path) -> None:
    item = file_item(source="run", source_id="run-1", reason="stuck", summary="s",
                     context={"gap_facts": ["deployed"], "spec": "/x/spec.yaml"}, root=goalkeeper_home)
    got = _one(run_cli("triage", "show", item.id, "--json"))
    assert got["sourceId"] == "run-1" and got["context"]["gapFacts"] == ["deployed"]
    assert "source_id" not in got


def test_the_config_examples_in_the_docs_are_valid(tmp_path: Path) -> None:
    doc = (REPO / "docs" / "cli.md").read_text()
    toml_blocks = re.findall(r"```toml\n(.*?)```", doc, re.S)
    yaml_blocks = re.findall(r"```yaml\n(.*?)```", doc, re.S)
    assert toml_blocks and yaml_blocks
    for block in toml_blocks:
        ConfigFile.model_validate(tomllib.loads(block))
    for block in yaml_blocks:
        p = tmp_path / "heartbeat.yaml"
        p.write_text(block)
        cfg, ws = load_config(p)
        assert cfg.scans and ws == tmp_path.resolve()
        jsonschema.validate(yaml.safe_load(block), json.loads(generated_text("heartbeat")))

