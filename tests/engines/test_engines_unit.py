"""No server needed: the registry, configuration precedence, resume rules, decisions on the wire."""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.convergence import Budget, Escalation, StartIteration
from goalkeeper.convergence.decide import Escalate
from goalkeeper.engines import engine_names, get_engine, make_engine
from goalkeeper.engines.temporal.config import load_config
from goalkeeper.engines.temporal.goal_activities import decision_from_dict, decision_to_dict
from goalkeeper.engines.temporal.goal_workflow import apply_resume
from goalkeeper.errors import ConfigError

from .helpers import new_goal


def test_registry_names_both_engines() -> None:
    assert engine_names() == ["local", "temporal"]
    assert callable(make_engine("local").run_goal)
    with pytest.raises(ConfigError, match="unknown engine 'nope'"):
        get_engine("nope")


def test_config_precedence_flags_over_env_over_file(tmp_path: Path) -> None:
    f = tmp_path / "config.toml"
    f.write_text('[temporal]\naddress = "file:1"\nnamespace = "from-file"\ntask_queue = "fq"\n')
    env = {"GOALKEEPER_TEMPORAL_CONFIG": str(f), "GOALKEEPER_TEMPORAL_NAMESPACE": "from-env",
           "TEMPORAL_API_KEY": "secret"}
    cfg = load_config({"address": "flag:2", "namespace": None}, env)
    assert (cfg.address, cfg.namespace, cfg.task_queue, cfg.api_key) == ("flag:2", "from-env", "fq", "secret")
    assert cfg.redacted()["api_key"] == "***"


def test_config_errors_name_the_fix(tmp_path: Path) -> None:
    f = tmp_path / "config.toml"
    f.write_text('[temporal]\nadress = "typo"\n')
    with pytest.raises(ConfigError, match="unknown keys \\['adress'\\]"):
        load_config({}, {"GOALKEEPER_TEMPORAL_CONFIG": str(f)})
    with pytest.raises(ConfigError, match="both tls_cert and tls_key"):
        load_config({"tls_cert": "c.pem"}, {})


def test_decisions_cross_the_activity_boundary_as_json() -> None:
    for d in (StartIteration(2, "maker", "hint", resumed=True), Escalate("budget_exhausted", "limit 1")):
        assert decision_from_dict(decision_to_dict(d)) == d


def test_resume_rules_match_the_local_engine(tmp_path: Path) -> None:
    g = new_goal(tmp_path, "rules")
    g.state = "escalated"
    g.escalation = Escalation(reason="budget_exhausted", detail="x")
    with pytest.raises(ConfigError, match="raised budget"):
        apply_resume(g)
    apply_resume(g, max_iterations=9)
    assert g.state == "active" and g.budget == Budget(max_iterations=9, max_duration="30m")
    g.state = "converged"
    with pytest.raises(ConfigError, match="cannot be resumed"):
        apply_resume(g)
