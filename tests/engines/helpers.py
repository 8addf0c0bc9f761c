"""Scripted makers as tiny shell programs, goal factories and the "history shape" of a goal."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from temporalio.client import Client

from goalkeeper.convergence import (
    Budget,
    Goal,
    MakerSpec,
    StoppingCondition,
    create_goal,
    load_goal,
)
from goalkeeper.engines.temporal import TemporalConfig, load_config
from goalkeeper.engines.temporal.client import run_sync, start_goal, wait_for
from goalkeeper.store import goals as gstore

FILES = ("one", "two", "three")
# Fixes one "defect" (a missing file) per iteration; converges at iteration 3.
# $SIDE (outside the workspace) lets a test hold one iteration: HOLD=N sleeps the first
# time iteration N runs; GATE=N waits in iteration N until $SIDE/go exists (a test acts
# mid-maker, then opens the gate); STEP_SLEEP slows every call.
MAKER = r"""
n="$GOALKEEPER_ITERATION"
[ -n "$SIDE" ] && touch "$SIDE/started-$n"
if [ -n "$HOLD" ] && [ "$n" = "$HOLD" ] && [ ! -e "$SIDE/held" ]; then touch "$SIDE/held"; exec sleep 120; fi
[ -n "$STEP_SLEEP" ] && sleep "$STEP_SLEEP"
if [ -n "$GATE" ] && [ "$n" = "$GATE" ]; then while [ ! -e "$SIDE/go" ]; do sleep 0.05; done; fi
for f in one two three; do
  if [ ! -e "$f" ]; then echo fixed > "$f"; echo "{\"summary\": \"created $f\", \"costDollars\": 0.01}"; exit 0; fi
done
echo '{"summary": "nothing left to fix", "costDollars": 0.0}'
"""
CHECK = StoppingCondition(type="custom_command", command=["sh", "-c", "test -e one && test -e two && test -e three"],
                          description="all three files exist")


def new_goal(tmp: Path, name: str, *, env: dict[str, str] | None = None, budget: Budget | None = None) -> Goal:
    ws = tmp / "ws" / name
    ws.mkdir(parents=True)
    (ws / "README").write_text("a workspace\n")
    # a maker that reports through a side directory outside its workspace cannot run sandboxed
    maker = MakerSpec(argv=["sh", "-c", MAKER], env=env or {}, timeout="5m",
                      sandbox="none" if env and "SIDE" in env else "auto")
    return create_goal(f"create the three files ({name})", [CHECK], maker=maker, workspace=ws,
                       budget=budget or Budget(max_iterations=6, max_duration="30m"))


def shape(goal: Goal) -> list[Any]:
    """What must match between engines: per iteration phase, verdict, maker result, conditions."""
    its = [
        (h.iteration, h.phase, h.oracle_verdict, h.rejected, h.maker_exit_code, h.maker_summary,
         h.cost_dollars, [c.passed for c in h.condition_results], h.tree_before != h.source_after, h.next_hint)
        for h in goal.history
    ]
    return [goal.state, goal.escalation.reason if goal.escalation else None, its]


def cfg_for(address: str, queue: str) -> TemporalConfig:
    return load_config({"address": address, "task_queue": queue, "heartbeat_seconds": 2})


def run_all(cfg: TemporalConfig, goal_ids: list[str]) -> list[Goal]:
    """Start every goal's workflow, then wait for all of them."""

    async def go(client: Client) -> list[Goal]:
        handles = [await start_goal(client, cfg, load_goal(g)) for g in goal_ids]
        return [Goal.model_validate(d) for d in await asyncio.gather(*(wait_for(h) for h in handles))]

    return run_sync(go, cfg)


def wait_existing(cfg: TemporalConfig, goal_id: str) -> Goal:
    """Wait for a goal workflow that is already running."""

    async def go(client: Client) -> Goal:
        return Goal.model_validate(await wait_for(client.get_workflow_handle(goal_id)))

    return run_sync(go, cfg)


def events(goal_id: str) -> list[dict[str, Any]]:
    return gstore.read_events(goal_id)


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "goalkeeper", *args], capture_output=True, text=True,
                          env=full, timeout=timeout, stdin=subprocess.DEVNULL)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(ln) for ln in text.splitlines() if ln.startswith("{")]
