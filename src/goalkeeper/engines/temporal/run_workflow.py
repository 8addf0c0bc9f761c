"""A GOAP run as a durable workflow: the tick machine (``runtime.machine``) carried out by activities.

The workflow decides nothing itself; it answers the machine's instructions the
way the local driver does, with observing, acting and filing as activities:

- ``Commit``: the event joins a buffer that the next activity writes to the shared
  store (events first, then the state; duplicates from retries are skipped by seq);
  before an action the buffer is written on its own, so ``tick.started`` is on disk
  before the command starts.
- ``Observe`` / ``Act`` / ``Escalate``: one activity each. An action is never retried
  by Temporal: if its worker dies mid-action the machine records the tick
  ``interrupted`` and re-observes, as after a local crash.
- ``Confirm``: a worker has nobody to ask, so only ``--yes`` approves a
  ``confirm: true`` action; without it the run escalates ``approval_required``
  naming ``--yes``, exactly as a non-interactive local run does.
- ``Propose``: the hybrid (LLM) runtime stays local; the client refuses it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, CancelledError, TimeoutError

with workflow.unsafe.imports_passed_through():
    from ...model.loader import parse_spec_text
    from ...runtime.decide import SpecModel
    from ...runtime.ledger import Ledger
    from ...runtime.machine import (
        Act,
        Acted,
        Commit,
        Confirm,
        Done,
        Escalate,
        Filed,
        Observe,
        Observed,
        Options,
        RunMachine,
    )

__all__ = ["RUN_WORKFLOW", "RunWorkflow"]

RUN_WORKFLOW = "RunWorkflow"
_RETRIED = RetryPolicy(maximum_interval=timedelta(seconds=30), maximum_attempts=20,
                       non_retryable_error_types=["SpecError", "ConfigError"])
_LOST = "the worker stopped while this action ran; its effects are re-observed"


@workflow.defn(name=RUN_WORKFLOW)
class RunWorkflow:
    @workflow.init
    def __init__(self, inp: dict[str, Any]) -> None:
        self.inp = inp
        self.ledger = Ledger.from_dict(inp["state"])
        self.unsaved: list[dict[str, Any]] = []  # committed events not yet in the shared store

    @workflow.query
    def state(self) -> dict[str, Any]:
        return {**self.inp["state"], **self.ledger.to_dict()}

    @workflow.run
    async def run(self, inp: dict[str, Any]) -> dict[str, Any]:
        spec = parse_spec_text(inp["specText"], source=inp["specPath"])
        st = inp["state"]
        options = Options(
            yes=bool(inp.get("yes")), name=st.get("spec_name", ""), until=tuple(inp.get("until", ())),
            workspace=inp.get("workspace", ""), opening=inp.get("opening", {}),
        )
        machine = RunMachine(SpecModel(spec, st.get("search", "astar")), self.ledger, options,
                             clock=lambda: workflow.now().isoformat())
        result: object = None
        while True:
            i = machine.send(result)
            result = None
            if isinstance(i, Commit):
                self.unsaved.append(dict(i.event))
            elif isinstance(i, Observe):
                obs = await self._call("run_observe", {"facts": list(i.facts)},
                                       timedelta(seconds=spec.policy.observe_timeout * 2 + 60))
                result = Observed({f: o["value"] for f, o in obs.items()},
                                  {f: o["error"] for f, o in obs.items() if o["error"]})
            elif isinstance(i, Act):
                result = await self._act(i, (spec.actions[i.action].timeout or spec.policy.action_timeout) + 60)
            elif isinstance(i, Confirm):
                result = None  # nobody to ask on a worker: only --yes approves
            elif isinstance(i, Escalate):
                filed = await self._call("run_escalate", {"escalation": _escalation(i)}, timedelta(minutes=5))
                result = Filed(filed["triageId"], filed["report"])
            elif isinstance(i, Done):
                await self._call("run_save", {}, timedelta(minutes=5))
                return self.state()
            else:
                raise RuntimeError(f"the Temporal engine cannot carry out {type(i).__name__}")

    def _hb(self) -> timedelta:
        return timedelta(seconds=float(self.inp["options"].get("heartbeatSeconds", 20.0)))

    def _payload(self, extra: dict[str, Any]) -> dict[str, Any]:
        i = self.inp
        commit = {"events": list(self.unsaved), "state": self.state()} if self.unsaved else None
        return {"specPath": i["specPath"], "runId": i["state"]["run_id"], "store": i["store"], "env": i.get("env"),
                "commit": commit, **extra}

    async def _call(self, name: str, extra: dict[str, Any], timeout: timedelta,
                    retry: RetryPolicy = _RETRIED) -> Any:
        out = await workflow.execute_activity(name, self._payload(extra), start_to_close_timeout=timeout,
                                              heartbeat_timeout=self._hb(), retry_policy=retry)
        self.unsaved = []  # the activity wrote them before doing its work
        return out

    async def _act(self, i: Act, timeout: float) -> Acted:
        # tick.started reaches the store first, through an activity that may be retried:
        # the action's own activity must not fail (it is never retried) over a write.
        await self._call("run_save", {}, timedelta(minutes=5))
        try:
            res = await self._call("run_execute_action", {"action": i.action, "tick": i.tick},
                                   timedelta(seconds=timeout), RetryPolicy(maximum_attempts=1))
        except ActivityError as e:
            if not isinstance(e.cause, TimeoutError | CancelledError):
                raise
            # The buffer stays: whether it was written is unknown, and the store skips seqs it has.
            return Acted(False, _LOST, interrupted=True)
        return Acted(res["ok"], res["text"], res["seconds"], res["log"])


def _escalation(e: Escalate) -> dict[str, Any]:
    return {"reason": e.reason, "message": e.message, "severity": e.severity, "summary": e.summary,
            "context": dict(e.context), "suggestions": list(e.suggestions), "unreachable": list(e.unreachable),
            "gaps": list(e.gaps), "blocked": list(e.blocked)}
