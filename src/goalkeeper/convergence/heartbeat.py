"""Heartbeat: run scan commands, and turn a failing scan into a triage item or a new goal.

A scan is judged exactly like a stopping condition. Auto-created goals are
capped per rolling hour by dollars: each one reserves its ``maxDollars``; past
the cap the scan files a triage item instead. A scan that already has a
pending item (or a live goal) is not filed again.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from ..errors import ConfigError
from ..proc import Runner, run_argv
from ..store import triage
from ..store.atomic import append_jsonl, read_data, read_jsonl
from ..store.home import home
from .conditions import run_condition
from .goal import Budget, MakerSpec, StoppingCondition, _Model
from .lifecycle import create_goal, infer_type
from .loop import run_goal
from .persist import list_goals

__all__ = ["HeartbeatConfig", "Scan", "ScanGoal", "ScanOutcome", "load_config", "run_heartbeat"]


class ScanGoal(_Model):
    objective: str
    maker: str | list[str] = Field(default_factory=list)
    max_iterations: int | None = 5
    max_dollars: float = 1.0
    max_duration: str | None = "30m"
    run: bool = False

    @field_validator("maker")
    @classmethod
    def _splits(cls, v: str | list[str]) -> str | list[str]:
        if isinstance(v, str):
            try:
                shlex.split(v)
            except ValueError as e:  # found when the config loads, not mid-scan
                raise ValueError(f"cannot split maker {v!r} into arguments: {e}") from None
        return v


class Scan(_Model):
    name: str
    command: str | list[str]
    type: Literal["test_pass", "lint_clean", "coverage_threshold", "build_pass", "custom_command"] | None = None
    threshold: float | None = None
    timeout: str | float | None = "10m"
    on_fail: Literal["triage", "goal"] = "triage"
    severity: Literal["info", "warning", "critical"] = "warning"
    goal: ScanGoal | None = None

    def condition(self) -> StoppingCondition:
        kind = self.type or infer_type(self.command if isinstance(self.command, str) else " ".join(self.command))
        return StoppingCondition(type=kind, command=self.command, threshold=self.threshold,
                                 description=self.name, timeout=self.timeout)


class HeartbeatConfig(_Model):
    workspace: str | None = None
    dollars_per_hour: float | None = Field(default=5.0, ge=0)
    scans: list[Scan] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class ScanOutcome:
    scan: str
    passed: bool
    action: Literal["ok", "filed", "goal", "duplicate", "capped"]
    summary: str
    triage_id: str | None = None
    goal_id: str | None = None
    goal_state: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"scan": self.scan, "passed": self.passed, "action": self.action, "summary": self.summary,
                "triageId": self.triage_id, "goalId": self.goal_id, "goalState": self.goal_state}


def load_config(path: str | Path) -> tuple[HeartbeatConfig, Path]:
    """Parse a YAML/JSON heartbeat config; returns it with the workspace resolved."""
    p = Path(path)
    try:
        data = read_data(p, refuse=lambda m: ConfigError(f"{p}: {m}"))
    except FileNotFoundError:
        raise ConfigError(f"no heartbeat config at {p}") from None
    try:
        cfg = HeartbeatConfig.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"{p}: {where}: {first['msg']}") from None
    for s in cfg.scans:
        if s.on_fail == "goal" and s.goal is None:
            raise ConfigError(f"{p}: scan {s.name!r} has onFail: goal but no goal: section")
    ws = (p.parent / cfg.workspace) if cfg.workspace else p.parent
    return cfg, ws.resolve()


def _ledger(root: Path | None) -> Path:
    return (root or home()) / "heartbeat" / "ledger.jsonl"


def _reserved(root: Path | None, now: float) -> float:
    return sum(float(r.get("dollars", 0)) for r in read_jsonl(_ledger(root)) if now - float(r.get("t", 0)) < 3600)


def _file(scan: Scan, cond: StoppingCondition, summary: str, output: str, ws: Path, root: Path | None,
          extra: str = "") -> triage.TriageItem:
    return triage.file_item(
        source="heartbeat", source_id=scan.name, reason="scan_failed", severity=scan.severity,
        summary=f"heartbeat scan {scan.name!r} failed: {summary}{extra}",
        context={"scan": scan.name, "workspace": str(ws), "stoppingConditions": [cond.dump()],
                 "output": output[-2000:]},
        suggested_actions=["promote it to a goal: `goalkeeper triage act <this-item-id> --goal`"],
        root=root,
    )


def _one(scan: Scan, ws: Path, cfg: HeartbeatConfig, root: Path | None, runner: Runner,
         clock: Callable[[], float]) -> ScanOutcome:
    cond = scan.condition()
    res = run_condition(cond, ws, runner)
    if res.passed:
        return ScanOutcome(scan.name, True, "ok", res.summary)
    if any(i.source == "heartbeat" and i.source_id == scan.name for i in triage.list_items(root, "pending")):
        return ScanOutcome(scan.name, False, "duplicate", res.summary)
    if scan.on_fail == "goal" and scan.goal is not None:
        live = [g for g in list_goals(root)
                if g.source.get("heartbeatScan") == scan.name and g.state in ("active", "paused")]
        if live:
            return ScanOutcome(scan.name, False, "duplicate", res.summary, goal_id=live[0].goal_id)
        now = clock()
        spent = _reserved(root, now)
        if cfg.dollars_per_hour is not None and spent + scan.goal.max_dollars > cfg.dollars_per_hour:
            note = (f" (goal not created: hourly dollar cap ${cfg.dollars_per_hour:.2f} reached, "
                    f"${spent:.2f} reserved in the last hour)")
            item = _file(scan, cond, res.summary, res.output_tail, ws, root, note)
            return ScanOutcome(scan.name, False, "capped", res.summary + note, triage_id=item.id)
        g = scan.goal
        goal = create_goal(
            g.objective, [cond],
            budget=Budget(max_iterations=g.max_iterations, max_dollars=g.max_dollars, max_duration=g.max_duration),
            maker=MakerSpec(argv=shlex.split(g.maker) if isinstance(g.maker, str) else list(g.maker)),
            workspace=ws, source={"heartbeatScan": scan.name}, root=root,
        )
        append_jsonl(_ledger(root), {"t": now, "goalId": goal.goal_id, "dollars": g.max_dollars})
        state = run_goal(goal.goal_id, root=root, runner=runner).state if g.run else goal.state
        return ScanOutcome(scan.name, False, "goal", res.summary, goal_id=goal.goal_id, goal_state=state)
    item = _file(scan, cond, res.summary, res.output_tail, ws, root)
    return ScanOutcome(scan.name, False, "filed", res.summary, triage_id=item.id)


def run_heartbeat(
    config: HeartbeatConfig,
    workspace: Path,
    *,
    root: Path | None = None,
    runner: Runner = run_argv,
    clock: Callable[[], float] = time.time,
) -> list[ScanOutcome]:
    """Run every scan once, in order."""
    return [_one(s, workspace, config, root, runner, clock) for s in config.scans]
