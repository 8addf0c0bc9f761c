"""``goalkeeper run SPEC --engine temporal``: create the run on disk, start its workflow, follow it.

The run exists in the shared store before the workflow starts (like a local
run), and its id is the workflow id. A ``confirm: true`` action needs ``--yes``:
workers have nobody to ask, so without it the run escalates approval_required. Observers and actions run on workers with
the worker's environment, plus the ``${VAR}`` values the spec names, taken
from the submitting shell, or from ``env`` when the API is given one (nothing
else of it is sent).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from temporalio.client import Client

from ...errors import ConfigError
from ...model.lint import require_runnable
from ...model.loader import load_spec
from ...runtime.driver import preflight_run
from ...runtime.progress import Reporter, null_reporter
from ...runtime.report import until_commands
from ...runtime.state import RunState, RunStore, file_sha256
from ...store.home import home, now_iso
from .client import EventTail, run_sync, wait_for
from .config import TemporalConfig
from .run_workflow import RUN_WORKFLOW

__all__ = ["start_run"]

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def start_run(
    spec_path: str | Path,
    cfg: TemporalConfig,
    *,
    max_ticks: int | None = None,
    search: str = "astar",
    yes: bool = False,
    root: Path | None = None,
    reporter: Reporter = null_reporter,
    wait: bool = True,
    env: Mapping[str, str] | None = None,
    max_dollars: float | None = None,
) -> RunState:
    """Start a GOAP run as a workflow; returns its final state (or the initial one with ``wait=False``)."""
    spec = load_spec(spec_path)  # a missing or invalid spec is a clear error before anything is saved
    require_runnable(spec)
    source = env if env is not None else os.environ
    preflight_run(spec, spec_path, source)  # the same refusals as a local run, before anything exists
    text = Path(spec_path).read_text(encoding="utf-8")
    store = RunStore.create(root)
    ts = now_iso()
    state = RunState(
        run_id=store.run_id, spec_path=str(Path(spec_path).resolve()), spec_sha256=file_sha256(spec_path),
        spec_name=spec.name or "", created=ts, updated=ts, search=search,
        max_ticks=max_ticks if max_ticks is not None else spec.policy.max_ticks, max_dollars=max_dollars,
    )
    with store.lock:
        store.save(state)  # the run exists before its workflow; the workflow logs run.started
    sent = {k: source[k] for k in sorted(set(_VAR.findall(text))) if k in source}
    inp: dict[str, Any] = {
        "specText": text, "specPath": state.spec_path, "state": state.model_dump(mode="json"),
        "store": str((root or home()).resolve()), "yes": yes, "env": sent,
        "until": list(until_commands(state.spec_path)), "workspace": str(Path(state.spec_path).parent),
        "opening": {"search": search, "engine": "temporal", "taskQueue": cfg.task_queue},
        "options": {"heartbeatSeconds": cfg.heartbeat_seconds},
    }

    async def go(client: Client) -> RunState:
        tail = EventTail(store.events_path, reporter, from_end=False)
        handle = await client.start_workflow(RUN_WORKFLOW, inp, id=store.run_id, task_queue=cfg.task_queue)
        if not wait:
            tail.poll()
            return state
        return RunState.model_validate(await wait_for(handle, tail))

    try:
        return run_sync(go, cfg)
    except ConfigError:  # never reached the server: do not leave a run that looks alive
        state.status = "error"
        with store.lock:
            store.commit(state, "run.failed", engine="temporal", address=cfg.address,
                         reason="the Temporal server could not be reached; nothing ran")
        raise
