"""The Temporal engine: goals and GOAP runs as durable workflows, run by ``goalkeeper worker``.

Synchronous entry points for the CLI and for scripts. Every function takes a
:class:`TemporalConfig` (see :func:`load_config`) and an optional store root
(``$GOALKEEPER_HOME`` by default) that clients and workers share.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from temporalio.client import Client, WorkflowExecutionStatus

from ...convergence import ledger
from ...convergence.goal import Goal
from ...convergence.lifecycle import abandon_goal as _abandon_local
from ...convergence.persist import load_goal, save_goal
from ...errors import ConfigError
from ...store import goals as gstore
from . import client as _c
from .client import EventSink, EventTail
from .config import TemporalConfig, connect, load_config
from .runs import start_run

__all__ = [
    "TemporalConfig",
    "abandon_goal",
    "connect",
    "export_goal",
    "fetch_goal",
    "list_goals",
    "load_config",
    "pause_goal",
    "resume_goal",
    "run_goal",
    "start_run",
    "submit_goal",
]


def _tail(goal_id: str, root: Path | None, on_event: EventSink | None) -> EventTail:
    return EventTail(gstore.goals_dir(root) / f"{goal_id}.events.jsonl", on_event)


def submit_goal(goal_id: str, cfg: TemporalConfig, *, root: Path | None = None) -> str:
    """Move a goal from the local store into Temporal (start its workflow) without waiting."""

    async def go(client: Client) -> str:
        handle = await _c.start_goal(client, cfg, load_goal(goal_id, root), root)
        return handle.id

    return _c.run_sync(go, cfg)


def run_goal(
    goal_id: str, cfg: TemporalConfig, *, root: Path | None = None, wait: bool = True,
    on_event: EventSink | None = None,
) -> Goal:
    """Start the goal's workflow and (by default) wait for it, streaming the shared event log."""

    async def go(client: Client) -> Goal:
        tail = _tail(goal_id, root, on_event)
        goal = load_goal(goal_id, root)
        handle = await _c.start_goal(client, cfg, goal, root)
        if not wait:
            return goal
        return Goal.model_validate(await _c.wait_for(handle, tail))

    return _c.run_sync(go, cfg)


def fetch_goal(goal_id: str, cfg: TemporalConfig, *, root: Path | None = None) -> Goal:
    async def go(client: Client) -> Goal:
        return Goal.model_validate(await _c.goal_data(client, goal_id, root))

    return _c.run_sync(go, cfg)


def list_goals(cfg: TemporalConfig, *, root: Path | None = None) -> list[Goal]:
    async def go(client: Client) -> list[Goal]:
        return [Goal.model_validate(d) for d in await _c.list_goal_data(client, root)]

    return _c.run_sync(go, cfg)


def pause_goal(goal_id: str, cfg: TemporalConfig, *, root: Path | None = None) -> str:
    """Signal ``pause``; the workflow obeys at its next phase boundary."""

    async def go(client: Client) -> str:
        goal = Goal.model_validate(await _c.goal_data(client, goal_id, root))
        if goal.state != "active":
            raise ConfigError(f"goal {goal_id} is {goal.state}; only an active goal can be paused")
        if await _c.workflow_status(client, goal_id) != WorkflowExecutionStatus.RUNNING:
            raise ConfigError(f"goal {goal_id} is not running in Temporal; start it with "
                              f"`goalkeeper goal run {goal_id} --engine temporal`")
        await _c.signal_goal(client, goal_id, "pause")
        return "requested"

    return _c.run_sync(go, cfg)


def abandon_goal(goal_id: str, cfg: TemporalConfig, *, root: Path | None = None) -> str:
    """Signal ``abandon`` to a running workflow; a goal that is not running is abandoned in its file."""

    async def go(client: Client) -> str:
        goal = Goal.model_validate(await _c.goal_data(client, goal_id, root))
        if goal.state in ("converged", "failed"):
            raise ConfigError(f"goal {goal_id} is already {goal.state}")
        if await _c.workflow_status(client, goal_id) == WorkflowExecutionStatus.RUNNING:
            await _c.signal_goal(client, goal_id, "abandon")
            return "requested"
        save_goal(goal, root)
        return _abandon_local(goal_id, root)

    return _c.run_sync(go, cfg)


def resume_goal(
    goal_id: str, cfg: TemporalConfig, *, root: Path | None = None, wait: bool = True,
    on_event: EventSink | None = None, **raise_budget: Any,
) -> Goal:
    """Resume: a signal to a paused workflow, or a new run of an escalated (budget) goal."""
    args = {k: v for k, v in raise_budget.items() if v is not None}

    async def go(client: Client) -> Goal:
        tail = _tail(goal_id, root, on_event)
        handle, signalled = await _c.resume_goal(client, cfg, goal_id, args, root)
        if not signalled:
            ledger.append(goal_id, "goal.resumed", root, engine="temporal", **args)
        if not wait:
            return Goal.model_validate(await _c.goal_data(client, goal_id, root))
        return Goal.model_validate(await _c.wait_for(handle, tail))

    return _c.run_sync(go, cfg)


def export_goal(
    goal_id: str, cfg: TemporalConfig, *, root: Path | None = None, dest: Path | None = None
) -> Path:
    """Write the goal as Temporal knows it to ``dest`` (default: its file in the local store)."""
    goal = fetch_goal(goal_id, cfg, root=root)
    if dest is None:
        save_goal(goal, root)
        return gstore.goal_path(goal_id, root)
    from ...store.atomic import USER_FILE, write_json_atomic

    write_json_atomic(dest, goal.dump(), mode=USER_FILE)
    return dest

