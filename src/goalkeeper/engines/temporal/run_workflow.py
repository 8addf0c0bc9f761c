"""A GOAP run as a durable workflow: ``runtime.decide`` each tick, observing and acting as activities.

The same pure functions as the local driver decide (``decide``, ``judge``,
``blocked_now``, ``corrections``); this module only sequences them. An action
is never retried by Temporal: if its worker dies mid-action the tick is
recorded ``interrupted`` and its effects are re-observed, as after a local
crash. The planner runtime only (the hybrid LLM runtime stays local for now).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, CancelledError, TimeoutError

with workflow.unsafe.imports_passed_through():
    from ...model.loader import parse_spec_text
    from ...runtime.decide import (
        Escalate,
        Execute,
        Reached,
        blocked_now,
        decide,
        judge,
    )
    from ...runtime.state import RunState, TickRecord

__all__ = ["RUN_WORKFLOW", "RunWorkflow"]

RUN_WORKFLOW = "RunWorkflow"
_RETRIED = RetryPolicy(maximum_interval=timedelta(seconds=30), maximum_attempts=20,
                       non_retryable_error_types=["SpecError", "ConfigError"])


@workflow.defn(name=RUN_WORKFLOW)
class RunWorkflow:
    @workflow.init
    def __init__(self, inp: dict[str, Any]) -> None:
        self.inp = inp
        self.st = RunState.model_validate(inp["state"])
        self.events: list[tuple[str, dict[str, Any]]] = []

    @workflow.query
    def state(self) -> dict[str, Any]:
        return self.st.model_dump(mode="json")

    @workflow.run
    async def run(self, inp: dict[str, Any]) -> dict[str, Any]:
        spec = parse_spec_text(inp["specText"], source=inp["specPath"])
        self.spec = spec
        st = self.st
        todo = self.routine
        for f, fdef in spec.facts.items():
            if fdef.diagnostic and f not in st.facts:
                if fdef.initial is not None:
                    st.facts[f], st.sources[f] = fdef.initial, "initial"
                else:
                    todo.append(f)
        await self.observe(todo)
        await self.save()
        while True:
            blocked = blocked_now(st.blocked, st.facts, st.spec_sha256)
            d = decide(spec, st.facts, ticks=st.tick, max_ticks=st.max_ticks, blocked=blocked, search=st.search)
            if isinstance(d, Reached):
                st.status, st.plan = "reached", []
                self.emit("reached", tick=st.tick)
                await self.save()
                return st.model_dump(mode="json")
            if isinstance(d, Escalate):
                return await self.escalate(d.reason, d.message, list(d.blocked))
            assert isinstance(d, Execute)
            if list(d.result.plan) != st.plan:
                st.plan = list(d.result.plan)
                self.emit("plan", plan=st.plan, cost=d.result.cost, expanded=d.result.expanded, excluded=blocked)
            if spec.actions[d.action].destructive:
                refusal = await self.check_destructive(d.action)
                if isinstance(refusal, tuple):
                    return await self.escalate(*refusal, [])
                if refusal:
                    await self.fail(d.action, "refused", refusal, workflow.now().isoformat())
                    continue
            await self.act(d.action)

    # --- plumbing ---------------------------------------------------------------
    @property
    def routine(self) -> list[str]:
        return [f for f, d in self.spec.facts.items() if not d.diagnostic]

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append((kind, data))

    def _base(self) -> dict[str, Any]:
        i = self.inp
        return {"specPath": i["specPath"], "runId": self.st.run_id, "store": i["store"], "env": i.get("env")}

    def _hb(self) -> timedelta:
        return timedelta(seconds=float(self.inp["options"].get("heartbeatSeconds", 20.0)))

    async def save(self) -> None:
        self.st.updated = workflow.now().isoformat()
        events, self.events = self.events, []
        await workflow.execute_activity(
            "run_save", {**self._base(), "state": self.st.model_dump(mode="json"), "events": events},
            start_to_close_timeout=timedelta(minutes=5), heartbeat_timeout=self._hb(), retry_policy=_RETRIED,
        )

    async def observe(self, facts: list[str], *, fresh: bool = False) -> dict[str, Any]:
        timeout = self.spec.policy.observe_timeout * 2 + 60
        obs: dict[str, dict[str, Any]] = await workflow.execute_activity(
            "run_observe", {**self._base(), "facts": facts},
            start_to_close_timeout=timedelta(seconds=timeout), heartbeat_timeout=self._hb(), retry_policy=_RETRIED,
        )
        st = self.st
        for f, o in obs.items():
            st.facts[f] = o["value"]
            st.sources[f] = "observed" if o["value"] is not None else "unknown"
            if o["error"]:
                st.errors[f] = o["error"]
            else:
                st.errors.pop(f, None)
        self.emit("observed", facts={f: o["value"] for f, o in obs.items()},
                  unknown={f: o["error"] for f, o in obs.items() if o["error"]}, **({"fresh": True} if fresh else {}))
        return {f: o["value"] for f, o in obs.items()}

    # --- one tick ---------------------------------------------------------------
    async def check_destructive(self, name: str) -> str | tuple[str, str] | None:
        action = self.spec.actions[name]
        facts = sorted({c.fact for c in action.pre_conditions})
        fresh = await self.observe(facts, fresh=True) if facts else {}
        failed = [str(c) for c in action.pre_conditions if not c.holds(fresh.get(c.fact))]
        await self.save()
        if failed:
            reason = "destructive action refused: precondition no longer holds: " + ", ".join(failed)
            self.emit("refused", action=name, reason=reason)
            return reason
        if action.confirm and not self.inp.get("yes"):
            return ("approval_required", f"destructive action {name} needs approval (confirm: true); re-run with --yes")
        return None

    async def act(self, name: str) -> None:
        st, spec = self.st, self.spec
        action = spec.actions[name]
        st.tick += 1
        started = workflow.now().isoformat()
        st.pending = {"tick": st.tick, "action": name, "started": started}
        self.emit("tick_started", tick=st.tick, action=name)
        await self.save()
        timeout = (action.timeout or spec.policy.action_timeout) + 60
        try:
            res = await workflow.execute_activity(
                "run_execute_action", {**self._base(), "action": name, "tick": st.tick},
                start_to_close_timeout=timedelta(seconds=timeout), heartbeat_timeout=self._hb(),
                retry_policy=RetryPolicy(maximum_attempts=1),
            )
        except ActivityError as e:
            if not isinstance(e.cause, TimeoutError | CancelledError):
                raise
            st.history.append(TickRecord(
                tick=st.tick, action=name, outcome="interrupted", started=started, ended=workflow.now().isoformat(),
                reason="the worker stopped while this action ran; its effects are re-observed", strikes=st.strikes,
            ))
            st.pending = None
            self.emit("interrupted", tick=st.tick, action=name)
            await self.observe(self.routine)
            await self.save()
            return
        after = await self.observe(self.routine)
        if res["ok"]:
            for f, v in action.effect_values:
                if spec.facts[f].diagnostic:
                    st.facts[f], st.sources[f] = v, "believed"
        verdict = judge(spec, name, res["ok"], res["text"], after)
        st.pending = None
        if not verdict.ok:
            await self.fail(name, "failed", verdict.reason, started, list(verdict.missing), res["seconds"], res["log"])
            return
        st.strikes, st.streak = 0, []
        st.history.append(TickRecord(tick=st.tick, action=name, outcome="ok", reason=verdict.reason, started=started,
                                     ended=workflow.now().isoformat(), seconds=res["seconds"], strikes=0, log=res["log"]))
        self.emit("action_finished", tick=st.tick, action=name, outcome="ok", reason=verdict.reason,
                  strikes=0, limit=spec.policy.strikes)
        await self.save()

    async def fail(self, name: str, outcome: Literal["failed", "refused"], reason: str, started: str,
                   missing: list[str] | None = None, seconds: float = 0.0, log: str | None = None) -> None:
        st, spec = self.st, self.spec
        st.strikes += 1
        st.streak.append(name)
        st.history.append(TickRecord(tick=st.tick, action=name, outcome=outcome, reason=reason,
                                     missing_effects=missing or [], started=started,
                                     ended=workflow.now().isoformat(), seconds=seconds, strikes=st.strikes, log=log))
        self.emit("action_finished", tick=st.tick, action=name, outcome=outcome, reason=reason,
                  strikes=st.strikes, limit=spec.policy.strikes)
        await self.save()
        if st.strikes >= spec.policy.strikes:
            await self.replan()

    async def replan(self) -> None:
        """The strike limit fired: observe everything, correct beliefs, block what failed."""
        st = self.st
        believed = dict(st.facts)
        observed = await self.observe(list(self.spec.facts))
        failed, fixes = st.record_replan(self.spec.actions, believed, observed)
        self.emit("replan", tick=st.tick, failed=failed, corrections=fixes, blocked=failed)
        await self.save()

    async def escalate(self, reason: str, message: str, blocked: list[str]) -> dict[str, Any]:
        await self.save()
        data: dict[str, Any] = await workflow.execute_activity(
            "run_escalate",
            {**self._base(), "state": self.st.model_dump(mode="json"), "reason": reason, "message": message,
             "blocked": blocked},
            start_to_close_timeout=timedelta(minutes=5), heartbeat_timeout=self._hb(), retry_policy=_RETRIED,
        )
        self.st = RunState.model_validate(data)
        return data

