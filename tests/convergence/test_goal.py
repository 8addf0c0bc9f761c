from __future__ import annotations

import json
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest

from goalkeeper.convergence import (
    Budget,
    Goal,
    MakerSpec,
    OracleConfig,
    StoppingCondition,
    check_rules,
)
from goalkeeper.convergence.goal import parse_duration
from goalkeeper.convergence.schema import goal_schema_text
from goalkeeper.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def _goal(**kw: object) -> Goal:
    data: dict[str, object] = {
        "goalId": "goal-abcd1234",
        "objective": "fix it",
        "stoppingConditions": [{"type": "test_pass", "command": "pytest -q"}],
    }
    data.update(kw)
    return Goal.model_validate(data)


def test_defaults_match_the_contract() -> None:
    g = _goal()
    assert g.budget.max_iterations == 15 and g.budget.max_duration == "2h" and g.budget.max_dollars == 10
    assert g.state == "active" and g.schema_version == 2
    dumped = g.dump()
    assert {"goalId", "stoppingConditions", "budget", "oracle", "state", "history", "escalation"} <= set(dumped)
    assert dumped["budget"] == {"maxIterations": 15, "maxDuration": "2h", "maxDollars": 10.0}


@pytest.mark.parametrize("bad", ["goal-ABCD1234", "goal-abc", "tri-abcd1234"])
def test_goal_id_pattern(bad: str) -> None:
    with pytest.raises(ValueError):
        _goal(goalId=bad)


def test_at_least_one_condition() -> None:
    with pytest.raises(ValueError):
        _goal(stoppingConditions=[])


@pytest.mark.parametrize(("text", "seconds"), [("2h", 7200), ("30m", 1800), ("90s", 90), (45, 45), ("1.5h", 5400)])
def test_parse_duration(text: str | int, seconds: float) -> None:
    assert parse_duration(text) == seconds


def test_parse_duration_error_names_the_format() -> None:
    with pytest.raises(ConfigError, match="'2h'"):
        parse_duration("two hours")


def test_rule_needs_a_budget_limit() -> None:
    g = _goal(budget=Budget(max_iterations=None, max_duration=None, max_dollars=None).dump())
    with pytest.raises(ConfigError, match="at least one of maxIterations"):
        check_rules(g)


def test_rule_oracle_is_not_the_maker() -> None:
    g = _goal(maker=MakerSpec(argv=["agent"], model="gpt-x").dump(), oracle=OracleConfig(model="gpt-x").dump())
    with pytest.raises(ConfigError, match="also the maker"):
        check_rules(g)


def test_rule_oracle_cannot_write() -> None:
    g = _goal(oracle={"model": "deterministic", "allowedTools": ["Read", "Edit"]})
    with pytest.raises(ConfigError, match="read-only"):
        check_rules(g)


def test_rule_placeholders_are_whole_arguments() -> None:
    g = _goal(maker={"argv": ["sh", "-c", "fix '{hint}'"]})
    with pytest.raises(ConfigError, match="GOALKEEPER_HINT"):
        check_rules(g)
    check_rules(_goal(maker={"argv": ["fix", "--hint", "{hint}"]}))


def test_rule_coverage_needs_threshold() -> None:
    g = _goal(stoppingConditions=[StoppingCondition(type="coverage_threshold", command="coverage report").dump()])
    with pytest.raises(ConfigError, match="threshold"):
        check_rules(g)


def test_schema_files_are_generated_and_in_sync() -> None:
    text = goal_schema_text()
    assert (REPO / "schemas" / "goal.schema.json").read_text() == text
    assert (REPO / "src" / "goalkeeper" / "schemas" / "goal.schema.json").read_text() == text


def test_dumped_goal_validates_against_the_shipped_schema() -> None:
    schema = json.loads((REPO / "schemas" / "goal.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(_goal().dump(), schema)
    bad = _goal().dump()
    bad["state"] = "done"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
