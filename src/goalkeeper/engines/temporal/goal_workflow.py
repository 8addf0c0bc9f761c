"""A goal as a durable workflow: the pure ``convergence.decide`` in a loop, phases as activities.

The workflow holds the goal model (Temporal's event history is its durable
copy) and asks :func:`~goalkeeper.convergence.decide.decide` what to do at
every phase boundary, exactly as the local loop does. Signals (pause, resume,
abandon) are obeyed at those boundaries; the ``state`` query returns the goal
JSON. The workflow id is the goal id, so Temporal refuses a second loop.

A maker call is never retried by Temporal. When its activity is cut off (its
worker died, hung or was too slow to heartbeat) the workflow first asks
``goal_recover_maker`` for the result the activity records per (goal,
iteration, attempt) before it returns: a maker that finished late is not run
again and its cost is kept. Only when there is no record does the iteration
stay in phase ``maker``, and ``decide`` resumes it as a restart (``restarts``
+ 1) or escalates past ``guards.maxRestarts``, exactly as after a local crash.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError, TimeoutError

with workflow.unsafe.imports_passed_through():
    from ...convergence.decide import (
        Decision,
        Paused,
        StartIteration,
        apply_resume,
        decide,
    )
    from ...convergence.goal import Goal, parse_duration
    from ...errors import ConfigError
    from .goal_activities import WorkspaceUnavailable, decision_to_dict

__all__ = ["GOAL_WORKFLOW", "GoalWorkflow", "apply_resume"]

GOAL_WORKFLOW = "GoalWorkflow"
_REFUSED = (WorkspaceUnavailable, "LockedError")  # the activity ran nothing: try again elsewhere
_FATAL = ["ConfigError", "CorruptStateError", "NotFoundError", "MissingExtraError"]


def _cut_off(e: ActivityError) -> bool:
    """The activity's worker died, hung or shut down: its effects are unknown."""
    return isinstance(e.cause, TimeoutError | CancelledError)


def _refused(e: ActivityError) -> bool:
    return isinstance(e.cause, ApplicationError) and e.cause.type in _REFUSED


@workflow.defn(name=GOAL_WORKFLOW)
class GoalWorkflow:
    @workflow.init
    def __init__(self, inp: dict[str, Any]) -> None:
        self._goal = Goal.model_validate(inp["goal"])
        self._opts: dict[str, Any] = dict(inp["options"])
        self._request: str | None = None
        self._resume: dict[str, Any] | None = None
        self._mark = 0.0

    # --- signals and query ------------------------------------------------------
    @workflow.signal
    def pause(self) -> None:
        if self._goal.state == "active" and self._request is None:
            self._request = "pause"

    @workflow.signal
    def abandon(self) -> None:
        if self._goal.state not in ("converged", "failed"):
            self._request = "abandon"

    @workflow.signal
    def resume(self, args: dict[str, Any]) -> None:
        self._resume = dict(args)

    @workflow.query
    def state(self) -> dict[str, Any]:
        return self._goal.dump()

    # --- the loop ---------------------------------------------------------------
    @workflow.run
    async def run(self, inp: dict[str, Any]) -> dict[str, Any]:
        self._mark = self._now()
        await self._call("goal_start", self._small())
        while True:
            await self._take_resume()
            if workflow.info().is_continue_as_new_suggested():
                workflow.continue_as_new({"goal": self._goal.dump(), "options": self._opts})
            d = self._decide()
            if isinstance(d, StartIteration):
                await self._step(d)
                continue
            request, self._request = self._request, None
            await self._call("goal_finish", self._small(), decision=decision_to_dict(d), request=request)
            if not isinstance(d, Paused):
                return self._goal.dump()
            await workflow.wait_condition(lambda: self._resume is not None or self._request == "abandon")
            self._mark = self._now()

    def _decide(self) -> Decision:
        """Every rule (budgets, guards, the restart limit) is decide()'s, as on the local engine."""
        return decide(self._goal, self._now(), since=self._mark, request=self._request)

    async def _take_resume(self) -> None:
        """A resume signal: make the goal active again, with a raised budget if one was given."""
        if self._resume is None:
            return
        args, self._resume = self._resume, None
        if self._request == "pause":
            self._request = None
        try:
            apply_resume(self._goal, **args)
        except ConfigError as e:
            workflow.logger.warning("resume ignored: %s", e)
            return
        await self._call("goal_persist", self._small(), event="goal.resumed",
                         fields={"hint": self._goal.last_hint()})

    async def _step(self, d: StartIteration) -> None:
        if d.phase == "maker":
            await self._call("goal_open_iteration", self._small(), decision=decision_to_dict(d))
            while True:
                try:
                    await self._call("goal_run_maker", self._maker_opts())
                    return
                except ActivityError as e:
                    if _refused(e):
                        await workflow.sleep(2)
                        continue
                    if _cut_off(e):
                        # A late result is recorded, not lost: adopt it; with none the iteration
                        # stays in phase "maker" and decide() restarts it.
                        if workflow.patched("recover-late-maker"):
                            await self._recover()
                        return
                    raise
        phase = self._goal.history[-1].phase
        if phase == "conditions":
            await self._call("goal_run_conditions", self._conditions_opts())
        elif phase == "oracle":
            await self._call("goal_run_oracle", self._oracle_opts())

    async def _recover(self) -> None:
        try:
            await self._call("goal_recover_maker", self._recover_opts())
        except ActivityError as e:  # no answer: treat it as no record (the maker may run again)
            workflow.logger.warning("maker recovery failed: %s", e)

    async def _call(self, name: str, options: dict[str, Any], **extra: Any) -> None:
        """Run one activity on the goal; the active time it took is counted on the workflow clock."""
        was_active = self._goal.state == "active"
        elapsed = self._goal.elapsed_seconds
        data = await workflow.execute_activity(
            name, {"goal": self._goal.dump(), "store": self._opts["store"], **extra}, **options
        )
        goal = Goal.model_validate(data)
        now = self._now()
        if was_active and goal.state == "active":  # a final phase keeps the time its file shows
            goal.elapsed_seconds = round(elapsed + max(0.0, now - self._mark), 3)
        self._mark = now
        self._goal = goal

    # --- timeouts and retries, matched to each activity's idempotency -------------
    def _now(self) -> float:
        return workflow.now().timestamp()

    def _hb(self) -> timedelta:
        return timedelta(seconds=float(self._opts.get("heartbeatSeconds", 20.0)))

    def _small(self) -> dict[str, Any]:
        return {
            "start_to_close_timeout": timedelta(minutes=10), "heartbeat_timeout": self._hb(),
            "retry_policy": RetryPolicy(maximum_interval=timedelta(seconds=30), maximum_attempts=20,
                                        non_retryable_error_types=_FATAL),
        }

    def _maker_opts(self) -> dict[str, Any]:
        limit = parse_duration(self._goal.maker.timeout)
        return {
            "start_to_close_timeout": timedelta(seconds=(limit or 86400.0) + 300), "heartbeat_timeout": self._hb(),
            "retry_policy": RetryPolicy(maximum_attempts=1),
        }

    def _recover_opts(self) -> dict[str, Any]:
        # Waits (LockedError, retried) while a stalled worker's maker still holds the goal; the
        # maker's own timeout bounds that, so this does too.
        limit = parse_duration(self._goal.maker.timeout) or 86400.0
        return {
            "start_to_close_timeout": timedelta(minutes=10), "heartbeat_timeout": self._hb(),
            "schedule_to_close_timeout": timedelta(seconds=limit + 900),
            "retry_policy": RetryPolicy(maximum_interval=timedelta(seconds=5), maximum_attempts=0,
                                        non_retryable_error_types=_FATAL),
        }

    def _conditions_opts(self) -> dict[str, Any]:
        total = sum(parse_duration(c.timeout) or 3600.0 for c in self._goal.stopping_conditions)
        return {
            "start_to_close_timeout": timedelta(seconds=total + 300), "heartbeat_timeout": self._hb(),
            "retry_policy": RetryPolicy(maximum_attempts=5, non_retryable_error_types=_FATAL),
        }

    def _oracle_opts(self) -> dict[str, Any]:
        return {
            "start_to_close_timeout": timedelta(hours=1), "heartbeat_timeout": self._hb(),
            "retry_policy": RetryPolicy(maximum_attempts=3, non_retryable_error_types=_FATAL),
        }
