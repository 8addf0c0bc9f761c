"""The client side: start goal and run workflows, signal them, read their state.

Reads follow one rule: a running workflow is asked (``state`` query); a
completed one gives its result; anything else (failed, terminated, no worker
to answer) falls back to the goal file the activities keep in the shared store.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import re
import stat
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from temporalio.client import Client, WorkflowExecutionStatus, WorkflowFailureError, WorkflowHandle
from temporalio.common import WorkflowIDConflictPolicy
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError, RPCStatusCode

from ...convergence.goal import Goal, check_rules
from ...convergence.persist import load_goal
from ...errors import ConfigError, GoalkeeperError, LockedError, NotFoundError
from ...store import goals as gstore
from ...store.home import home
from .config import TemporalConfig, connect
from .goal_workflow import GOAL_WORKFLOW, apply_resume

__all__ = [
    "EventSink",
    "EventTail",
    "goal_data",
    "list_goal_data",
    "release",
    "run_sync",
    "start_goal",
    "wait_for",
    "workflow_status",
]

T = TypeVar("T")
EventSink = Callable[[dict[str, Any]], None]
_QUERY_TIMEOUT = timedelta(seconds=10)


def run_sync(fn: Callable[[Client], Awaitable[T]], cfg: TemporalConfig) -> T:
    """Connect, run ``fn(client)``, return its result: the CLI is synchronous."""

    async def main() -> T:
        client: Client | None = await connect(cfg)
        try:
            assert client is not None
            return await fn(client)
        finally:
            await release(client)
            client = None

    return asyncio.run(main())


async def release(client: Client | None) -> None:
    """Drop the client's core connection while the loop still runs.

    Left to interpreter shutdown, the SDK's native threads can call into a
    finalizing interpreter and crash the process (SIGSEGV) after its work is done.
    """
    del client
    gc.collect()
    await asyncio.sleep(0.05)


class EventTail:
    """Follows a JSONL event log that workers append to, from a given offset."""

    def __init__(self, path: Path, sink: EventSink | None, *, from_end: bool = True) -> None:
        self.path = path
        self.sink = sink
        self.offset = path.stat().st_size if from_end and path.exists() else 0

    def poll(self) -> None:
        if self.sink is None or not self.path.exists():
            return
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return
            f.seek(self.offset)
            chunk = f.read(64 << 20)
        end = chunk.rfind(b"\n")
        if end < 0:
            return
        self.offset += end + 1
        for line in chunk[: end + 1].splitlines():
            with contextlib.suppress(ValueError):
                rec = json.loads(line)
                if isinstance(rec, dict):
                    self.sink(rec)


async def wait_for(handle: WorkflowHandle[Any, Any], tail: EventTail | None = None) -> Any:
    """The workflow's result, streaming events meanwhile; a failed workflow is a GoalkeeperError."""
    task = asyncio.ensure_future(handle.result())
    while not task.done():
        await asyncio.wait({task}, timeout=0.3)
        if tail is not None:
            tail.poll()
    try:
        return task.result()
    except WorkflowFailureError as e:
        cause: BaseException | None = e.cause
        while getattr(cause, "cause", None) is not None:
            cause = getattr(cause, "cause")  # noqa: B009 - FailureError chains, typed loosely
        raise GoalkeeperError(f"workflow {handle.id} failed: {cause or e}") from None


def _options(cfg: TemporalConfig, root: Path | None) -> dict[str, Any]:
    return {"store": str((root or home()).resolve()), "heartbeatSeconds": cfg.heartbeat_seconds}


async def workflow_status(client: Client, workflow_id: str) -> WorkflowExecutionStatus | None:
    """Status of the latest run of ``workflow_id``; None when Temporal never saw it."""
    try:
        desc = await client.get_workflow_handle(workflow_id).describe()
    except RPCError as e:
        if e.status == RPCStatusCode.NOT_FOUND:
            return None
        raise
    return desc.status


async def start_goal(
    client: Client, cfg: TemporalConfig, goal: Goal, root: Path | None = None
) -> WorkflowHandle[Any, Any]:
    """Hand ``goal`` (the local file's content) to Temporal; the workflow id is the goal id."""
    check_rules(goal)
    if not goal.workspace:
        raise ConfigError(f"goal {goal.goal_id} names no workspace; workers cannot guess one")
    try:
        return await client.start_workflow(
            GOAL_WORKFLOW, {"goal": goal.dump(), "options": _options(cfg, root)},
            id=goal.goal_id, task_queue=cfg.task_queue,
            id_conflict_policy=WorkflowIDConflictPolicy.FAIL,
        )
    except WorkflowAlreadyStartedError:
        raise LockedError(
            f"goal {goal.goal_id} is already running in Temporal ({cfg.namespace}); watch it with "
            f"`goalkeeper goal status {goal.goal_id} --engine temporal`"
        ) from None


async def goal_data(client: Client, goal_id: str, root: Path | None = None) -> dict[str, Any]:
    """The goal JSON as Temporal knows it (query / result), else the shared goal file."""
    handle = client.get_workflow_handle(goal_id)
    status = await workflow_status(client, goal_id)
    with contextlib.suppress(RPCError, asyncio.TimeoutError):
        if status == WorkflowExecutionStatus.RUNNING:
            data: dict[str, Any] = await handle.query("state", rpc_timeout=_QUERY_TIMEOUT)
            return data
        if status == WorkflowExecutionStatus.COMPLETED:
            data = await handle.result(rpc_timeout=_QUERY_TIMEOUT)
            return data
    if status is None and not gstore.goal_path(goal_id, root).exists():
        raise NotFoundError(f"no goal {goal_id!r} in Temporal; list them with `goalkeeper goal list --engine temporal`")
    return load_goal(goal_id, root).dump()


async def list_goal_data(client: Client, root: Path | None = None) -> list[dict[str, Any]]:
    """Every goal workflow (latest run per goal id), through visibility."""
    seen: list[str] = []
    async for wf in client.list_workflows(f'WorkflowType="{GOAL_WORKFLOW}"'):
        if wf.id not in seen and re.fullmatch(r"goal-[a-z0-9]{8}", wf.id):
            seen.append(wf.id)
    return list(await asyncio.gather(*(goal_data(client, g, root) for g in seen)))


async def signal_goal(client: Client, goal_id: str, name: str, *args: Any) -> None:
    await client.get_workflow_handle(goal_id).signal(name, *args)


async def resume_goal(
    client: Client, cfg: TemporalConfig, goal_id: str, args: dict[str, Any], root: Path | None = None
) -> tuple[WorkflowHandle[Any, Any], bool]:
    """Signal a running workflow, or start a new run of a finished one; True when signalled."""
    goal = Goal.model_validate(await goal_data(client, goal_id, root))
    apply_resume(goal, **args)  # validates: the same rules and messages as the local engine
    if await workflow_status(client, goal_id) == WorkflowExecutionStatus.RUNNING:
        await signal_goal(client, goal_id, "resume", args)
        return client.get_workflow_handle(goal_id), True
    return await start_goal(client, cfg, goal, root), False
