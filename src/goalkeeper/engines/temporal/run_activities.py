"""The side effects of a GOAP run: observe facts, execute one action, save the run, escalate.

The run's files stay where the local engine puts them (``<store>/runs/<id>/``:
state.json, events.jsonl, logs/, report), on a filesystem every worker sees,
so ``goalkeeper runs show`` works unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from temporalio import activity

from ...model.loader import load_spec
from ...planning import plan
from ...runtime.decide import Escalate
from ...runtime.observers import ObserveContext, observe_all
from ...runtime.process import run_command
from ...runtime.report import build_report, render_markdown
from ...runtime.state import RunState, RunStore
from ...store import file_item, write_json_atomic, write_text_atomic
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


def _observe(inp: dict[str, Any]) -> dict[str, Any]:
    spec = load_spec(inp["specPath"])
    ctx = ObserveContext(base_dir=Path(inp["specPath"]).parent, env=_env(inp),
                         timeout=spec.policy.observe_timeout)
    obs = observe_all(spec, inp["facts"], ctx)
    return {f: {"value": o.value, "error": o.error} for f, o in obs.items()}


def _act(inp: dict[str, Any]) -> dict[str, Any]:
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


def _save(inp: dict[str, Any]) -> None:
    store = _store(inp)
    with store.lock:
        store.save(RunState.model_validate(inp["state"]))
        for kind, data in inp.get("events", []):
            store.event(kind, **data)


def _escalate(inp: dict[str, Any]) -> dict[str, Any]:
    spec = load_spec(inp["specPath"])
    st = RunState.model_validate(inp["state"])
    store = _store(inp)
    reason, message = inp["reason"], inp["message"]
    result = plan(spec, st.facts, search=st.search) if reason in ("unreachable", "no_admissible_action") else None
    esc = Escalate(reason, message, result, tuple(inp.get("blocked", [])))
    report = build_report(spec, st, esc)
    md = render_markdown(report)
    write_json_atomic(store.dir / "report.json", report)
    write_text_atomic(store.dir / "report.md", md)
    gap_facts = sorted({g["fact"] for g in report["gaps"]} | {u["fact"] for u in report["unreachable"]})
    item = file_item(
        source="run", source_id=st.run_id, reason=reason, summary=f"{st.spec_name}: {message}",
        context={"spec": st.spec_path, "gap_facts": gap_facts, "gaps": report["gaps"],
                 "report": str(store.dir / "report.json")},
        suggested_actions=report["suggested_actions"],
        severity="critical" if reason in ("unreachable", "no_admissible_action") else "warning",
        markdown=md, root=Path(inp["store"]),
    )
    st.status = "escalated"
    st.escalation = {"reason": reason, "message": message, "triage_id": item.id,
                     "report": str(store.dir / "report.md"), "gaps": report["gaps"]}
    with store.lock:
        store.save(st)
        store.event("escalated", reason=reason, message=message, gaps=report["gaps"], triage_id=item.id,
                    report=str(store.dir / "report.md"))
    return st.model_dump(mode="json")


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
    """Write state.json atomically and append the buffered events."""
    await heartbeating(lambda: _save(inp))


@activity.defn(name="run_escalate")
async def run_escalate(inp: dict[str, Any]) -> dict[str, Any]:
    """Write the escalation report and file the triage item."""
    return await heartbeating(lambda: _escalate(inp))


ACTIVITIES = [run_observe, run_execute_action, run_save, run_escalate]
