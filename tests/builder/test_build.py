"""The builder: five-part SPEC document, target deliverables, determinism, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from goalkeeper.build import TARGETS, build, write_build
from goalkeeper.errors import ConfigError, SpecError
from goalkeeper.model.loader import load_spec, parse_spec_text

SPECS = Path(__file__).parent / "specs"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL_SPECS = sorted(SPECS.glob("*.yaml")) + sorted(EXAMPLES.glob("*/spec.yaml"))


@pytest.mark.parametrize("spec_path", ALL_SPECS, ids=lambda p: p.parent.name + "/" + p.name)
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_output_is_deterministic(spec_path: Path, target: str, tmp_path: Path) -> None:
    first = build(load_spec(spec_path), target)
    second = build(load_spec(spec_path), target)  # a fresh load: no shared caches
    assert first == second
    write_build(first, tmp_path / "a")
    write_build(second, tmp_path / "b")
    for name in first:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_files_per_target() -> None:
    spec = load_spec(SPECS / "pipeline.yaml")
    assert set(build(spec, "llm")) == {"SPEC.md", "system_prompt.md", "response.schema.json"}
    assert set(build(spec, "code")) == {"SPEC.md", "actions.json", "runner.py"}
    assert set(build(spec, "hybrid")) == {
        "SPEC.md", "proposer_prompt.md", "response.schema.json", "validator_contract.md",
        "actions.json", "runner.py",
    }


def test_document_has_the_five_parts_observers_cap_and_diagrams() -> None:
    doc = build(load_spec(SPECS / "pipeline.yaml"), "code")["SPEC.md"]
    heads = [line for line in doc.splitlines() if line.startswith("## ")]
    assert heads == [
        "## 1. State schema", "## 2. Action contract", "## 3. Planning loop", "## 4. Replan trigger",
        "## 5. Escalation policy", "## Tick cap and observers", "## Action graph", "## First plan",
    ]
    state_json = doc.split("```json\n", 1)[1].split("```", 1)[0]
    schema = json.loads(state_json)
    assert schema["version"]["type"] == "integer"
    assert schema["approved"]["diagnostic"] is True
    assert "| `release` | built == true, version >= 2, approved == true | released = true | 1 | no |" in doc
    assert "**Tick cap:** 10 ticks" in doc and "At 3 strikes" in doc
    assert "| `released` | bool | command `grep -q released out/status.txt` | 10 s |" in doc
    assert doc.count("```mermaid") == 2
    assert "build → bump → release" in doc  # the first plan from the initial (unknown) state
    assert ".goalkeeper/triage/" in doc


def test_llm_answer_schema_accepts_exactly_the_contract() -> None:
    files = build(load_spec(SPECS / "pipeline.yaml"), "llm")
    schema = json.loads(files["response.schema.json"])
    jsonschema.Draft202012Validator.check_schema(schema)
    ok = {"action": "bump", "expects": {"version": 2}, "reason": "release needs version 2"}
    jsonschema.validate(ok, schema)
    jsonschema.validate({"action": "DONE", "reason": "goal holds"}, schema)
    for bad in (
        {"action": "bump", "expects": {"version": 3}, "reason": "lie about the effect"},
        {"action": "deploy_everything", "expects": {}, "reason": "invented"},
        {"action": "bump", "expects": {"version": 2}},
        {"action": "bump", "expects": {"version": 2}, "reason": "x", "also": "release"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
    prompt = files["system_prompt.md"]
    assert "ONE JSON object" in prompt and "`release`" in prompt and "null" in prompt


def test_hybrid_contract_names_destructive_rules() -> None:
    spec = parse_spec_text(
        "goalkeeper: 1\nname: w\ngoal: {clean: true}\nfacts:\n  clean: {observe: {command: 'true'}}\n"
        "actions:\n  wipe: {pre: {clean: false}, effects: {clean: true}, destructive: true, confirm: true}\n"
    )
    files = build(spec, "hybrid")
    assert "(`wipe`)" in files["validator_contract.md"]
    assert "refused" in files["validator_contract.md"] and "validator refuses" in files["proposer_prompt.md"]


def test_build_refuses_unobserved_facts_and_unknown_targets() -> None:
    spec = parse_spec_text("goalkeeper: 1\ngoal: {ok: true}\nfacts: {ok: {}}\nactions: {fix: {effects: {ok: true}}}\n")
    with pytest.raises(SpecError) as e:
        build(spec, "code")
    assert [i.path for i in e.value.issues] == ["facts.ok"]
    with pytest.raises(ConfigError, match="unknown build target"):
        build(load_spec(SPECS / "pipeline.yaml"), "cobol")


def test_first_plan_from_a_given_state() -> None:
    doc = build(load_spec(SPECS / "pipeline.yaml"), "llm", state={"built": True, "version": 2,
                                                                   "released": False})["SPEC.md"]
    assert "From the given state, backward chaining finds 1 step(s) of total cost 1: release." in doc
