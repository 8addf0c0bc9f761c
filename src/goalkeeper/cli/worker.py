"""``goalkeeper worker --engine temporal``: run goal and run workflows for a Temporal task queue.

Exit codes: 0 stopped by SIGTERM/SIGINT, 1 error (cannot connect, bad config,
missing ``goalkeeper[temporal]`` extra).
"""

from __future__ import annotations

import os
import sys

import click

from ..engines import get_engine
from ._common import EXIT_USAGE, err_console, fail, handle_errors

__all__ = ["command"]


def _stable_hashes() -> None:
    """Workflows replay on any worker: fix the str hash seed so set order (planner ties) agrees."""
    if os.environ.get("PYTHONHASHSEED") == "0":
        return
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "goalkeeper", *sys.argv[1:]], env)


@click.command("worker")
@click.option("--engine", type=click.Choice(["temporal"]), default="temporal", show_default=True,
              help="The local engine needs no worker; only temporal has one.")
@click.option("--address", default=None, metavar="HOST:PORT",
              help="Temporal frontend (env GOALKEEPER_TEMPORAL_ADDRESS; default 127.0.0.1:7233).")
@click.option("--namespace", default=None, help="Temporal namespace (default: default).")
@click.option("--task-queue", "task_queue", default=None, help="Task queue to poll (default: goalkeeper).")
@click.option("--concurrency", type=click.IntRange(min=1), default=4, show_default=True,
              help="Activities (makers, conditions, oracles, actions) run at once by this worker.")
@click.option("--workspace-root", "roots", multiple=True, metavar="DIR",
              help="Only serve goals whose workspace is under DIR (repeatable); others are refused.")
@click.option("--identity", default=None, help="Worker name shown in Temporal (default user@host:pid).")
@handle_errors
def command(engine: str, address: str | None, namespace: str | None, task_queue: str | None,
            concurrency: int, roots: tuple[str, ...], identity: str | None) -> None:
    """Poll a Temporal task queue and run goals and GOAP runs; many workers may share a queue."""
    if engine != "temporal":
        fail("only --engine temporal has workers", EXIT_USAGE)
    mod = get_engine("temporal")  # MissingExtraError names `pip install 'goalkeeper[temporal]'`
    _stable_hashes()
    cfg = mod.load_config({"address": address, "namespace": namespace, "task_queue": task_queue})
    from ..engines.temporal.worker import run_worker

    def ready(ident: str) -> None:
        err_console.print(f"worker {ident} ready: {cfg.address} namespace {cfg.namespace} "
                          f"queue {cfg.task_queue}, concurrency {concurrency}", markup=False)

    run_worker(cfg, concurrency=concurrency, workspace_roots=list(roots), identity=identity, on_ready=ready)
