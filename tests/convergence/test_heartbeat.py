from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from goalkeeper.convergence import load_goal
from goalkeeper.convergence.heartbeat import load_config, run_heartbeat
from goalkeeper.errors import ConfigError
from goalkeeper.store.triage import list_items

FAIL = f"{sys.executable} -c 'raise SystemExit(1)'"
OK = f"{sys.executable} -c 'pass'"


def _config(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "heartbeat.yaml"
    p.write_text(body)
    return p


def test_failing_scan_files_once(tmp_path: Path) -> None:
    cfg, ws = load_config(_config(tmp_path, f"""
scans:
  - name: ok
    command: "{OK}"
  - name: broken
    command: "{FAIL}"
    severity: critical
"""))
    first = run_heartbeat(cfg, ws)
    assert [o.action for o in first] == ["ok", "filed"]
    item = list_items()[0]
    assert item.source == "heartbeat" and item.source_id == "broken" and item.severity == "critical"
    assert item.context["stoppingConditions"][0]["command"] == FAIL
    assert [o.action for o in run_heartbeat(cfg, ws)] == ["ok", "duplicate"]
    assert len(list_items()) == 1


def test_goal_creation_respects_the_hourly_dollar_cap(tmp_path: Path) -> None:
    body = """
dollarsPerHour: 3
scans:
""" + "".join(f"""
  - name: s{i}
    command: "{FAIL}"
    onFail: goal
    goal: {{objective: "fix s{i}", maker: "true", maxDollars: 2}}
""" for i in range(2))
    cfg, ws = load_config(_config(tmp_path, body))
    now = [1000.0]
    out = run_heartbeat(cfg, ws, clock=lambda: now[0])
    assert [o.action for o in out] == ["goal", "capped"]
    goal = load_goal(out[0].goal_id or "")
    assert goal.source == {"heartbeatScan": "s0"} and goal.budget.max_dollars == 2
    assert "hourly dollar cap" in list_items()[0].summary
    now[0] += 3601  # an hour later the reservation has expired; s0's goal is still live
    later = run_heartbeat(cfg, ws, clock=lambda: now[0])
    assert [o.action for o in later] == ["duplicate", "duplicate"]


def test_goal_section_required(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no goal: section"):
        load_config(_config(tmp_path, json.dumps({"scans": [{"name": "x", "command": OK, "onFail": "goal"}]})))
