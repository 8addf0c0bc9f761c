"""The side effects of a GOAP run on Temporal: observe facts, execute one action, file an escalation.

The run's files stay where the local engine puts them (``<store>/runs/<id>/``:
state.json, events.jsonl, logs/, report), on a filesystem every worker sees,
so ``goalkeeper runs show`` works unchanged. Every activity first writes the
events the workflow committed since the last one, then the state: the same
order as the local driver, and idempotent by ``seq`` so a retried activity
never logs an event twice nor saves an older state over a newer one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from temporalio import activity

from ...model.loader import load_spec
from ...runtime.machine import Escalate
from ...runtime.observers import ObserveContext, observe_all
from ...runtime.process import run_command
from ...runtime.report import file_escalation
from ...runtime.state import RunState, RunStore
from ...store import write_text_atomic
from .goal_activities import heartbeating

__all__ = ["ACTIVITIES"]


def _env(inp: dict[str, Any]) -> dict[str, str]:
    base = Path(inp["specPath"]).parent
    env = dict(os.environ)
    env.update(inp.get("env") or {})
    env.update(GOALKEEPER_RUN_ID=inp["runId"], GOALKEEPER_SPEC_DIR=str(base))
    return env


def _store(inp: dict[str, Any]) -> RunStore:
    return RunStore(inp["runId"], Path(inp["store"]))


def _write_commit(inp: dict[str, Any]) -> RunState | None:
    """Append the committed events the log lacks, then save the state unless a newer one is saved."""
    if not inp.get("commit"):
        return None
    store = _store(inp)
    state = RunState.model_validate(inp["commit"]["state"])
    with store.lock:
        top = store.last_seq()
        for event in inp["commit"]["events"]:
            if event["seq"] > top:
                store.append(event)
        on_disk = store.load().seq if store.exists() else -1
        if state.seq >= on_disk:
            store.save(state)
    return state


def _observe(inp: dict[str, Any]) -> dict[str, Any]:
    _write_commit(inp)
    spec = load_spec(inp["specPath"])
    ctx = ObserveContext(base_dir=Path(inp["specPath"]).parent, env=_env(inp),
                         timeout=spec.policy.observe_timeout)
    obs = observe_all(spec, inp["facts"], ctx)
    return {f: {"value": o.value, "error": o.error} for f, o in obs.items()}


def _act(inp: dict[str, Any]) -> dict[str, Any]:
    _write_commit(inp)  # normally empty: the workflow saved tick.started just before
    spec = load_spec(inp["specPath"])
    action = spec.actions[inp["action"]]
    base = Path(inp["specPath"]).parent
    env = dict(_env(inp), GOALKEEPER_TICK=str(inp["tick"]))
    if action.env:
        env.update(action.env)
    if action.run is None:
        return {"ok": True, "text": "no command (effects are observed)", "seconds": 0.0, "log": None}
    cwd = base / action.cwd if action.cwd else base
    res = run_command(action.run, cwd=cwd, env=env, timeout=action.timeout or spec.policy.action_timeout)
    text = res.describe()
    if not res.ok and res.stderr.strip():
        text += ": " + res.stderr.strip().splitlines()[-1][:200]
    log = _store(inp).logs / f"tick-{inp['tick']:04d}-{inp['action']}.log"
    write_text_atomic(
        log,
        f"$ {action.run}\n# {res.describe()} in {res.seconds:.2f}s\n"
        f"## stdout\n{res.stdout}\n## stderr\n{res.stderr}\n",
    )
    return {"ok": res.ok, "text": text, "seconds": res.seconds, "log": str(log)}


def _escalate(inp: dict[str, Any]) -> dict[str, Any]:
    state = _write_commit(inp) or _store(inp).load()
    e = inp["escalation"]
    esc = Escalate(e["reason"], e["message"], e["severity"], e["summary"], e["context"], tuple(e["suggestions"]),
                   tuple(e["unreachable"]), tuple(e["gaps"]), tuple(e["blocked"]))
    filed = file_escalation(load_spec(inp["specPath"]), state, esc, _store(inp), Path(inp["store"]))
    return {"triageId": filed.triage_id, "report": filed.report}


@activity.defn(name="run_observe")
async def run_observe(inp: dict[str, Any]) -> dict[str, Any]:
    """Read facts from the world; read-only, so retried."""
    return await heartbeating(lambda: _observe(inp))


@activity.defn(name="run_execute_action")
async def run_execute_action(inp: dict[str, Any]) -> dict[str, Any]:
    """Run one action's command. Its idempotency is unknown: never retried blindly."""
    return await heartbeating(lambda: _act(inp))


@activity.defn(name="run_save")
async def run_save(inp: dict[str, Any]) -> None:
    """Write the committed events, then state.json."""
    await heartbeating(lambda: _write_commit(inp))


@activity.defn(name="run_escalate")
async def run_escalate(inp: dict[str, Any]) -> dict[str, Any]:
    """Write the escalation report and file the triage item (once per run, tick and reason)."""
    return await heartbeating(lambda: _escalate(inp))


ACTIVITIES = [run_observe, run_execute_action, run_save, run_escalate]
