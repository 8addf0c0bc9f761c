"""A worker process: polls one task queue, replays workflows, runs activities in a thread pool.

``--concurrency N`` bounds the activities (makers, conditions, oracles, GOAP
actions) running at once on this worker. Workflows run in Temporal's sandbox
with goalkeeper passed through: the decision code is pure, and passing it
through keeps the pydantic models identical inside and outside.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

from temporalio.worker import Worker
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

from .config import TemporalConfig, connect
from .goal_activities import ACTIVITIES as GOAL_ACTIVITIES
from .goal_activities import IDENTITY_ENV, WORKSPACE_ROOTS_ENV
from .goal_workflow import GoalWorkflow
from .run_activities import ACTIVITIES as RUN_ACTIVITIES
from .run_workflow import RunWorkflow

__all__ = ["run_worker", "serve"]


async def serve(
    cfg: TemporalConfig,
    *,
    concurrency: int = 4,
    workspace_roots: Sequence[str] = (),
    identity: str | None = None,
    on_ready: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Run until ``stop`` is set (or SIGTERM/SIGINT); in-flight activities are cut off, not lost."""
    if workspace_roots:
        os.environ[WORKSPACE_ROOTS_ENV] = os.pathsep.join(str(Path(r).resolve()) for r in workspace_roots)
    client = await connect(cfg)
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=concurrency + 2, thread_name_prefix="goalkeeper-activity")
    loop.set_default_executor(pool)
    ident = identity or f"goalkeeper@{socket.gethostname()}:{os.getpid()}"
    os.environ[IDENTITY_ENV] = ident
    worker = Worker(
        client,
        task_queue=cfg.task_queue,
        workflows=[GoalWorkflow, RunWorkflow],
        activities=[*GOAL_ACTIVITIES, *RUN_ACTIVITIES],
        workflow_runner=SandboxedWorkflowRunner(
            restrictions=SandboxRestrictions.default.with_passthrough_modules("goalkeeper", "yaml")
        ),
        max_concurrent_activities=concurrency,
        identity=ident,
        sticky_queue_schedule_to_start_timeout=timedelta(seconds=cfg.sticky_timeout_seconds),
        graceful_shutdown_timeout=timedelta(seconds=1),
    )
    stop = stop or asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    async with worker:
        if on_ready is not None:
            on_ready(ident)
        await stop.wait()
    pool.shutdown(wait=False, cancel_futures=True)


def run_worker(cfg: TemporalConfig, **kwargs: object) -> None:
    """Blocking entry point for ``goalkeeper worker``."""
    asyncio.run(serve(cfg, **kwargs))  # type: ignore[arg-type]
