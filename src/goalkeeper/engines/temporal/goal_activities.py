"""The side effects of a goal, one activity per phase: the workflow decides, these carry out.

Each activity gets the goal as JSON (the workflow holds the truth), runs one
phase of :class:`~goalkeeper.convergence.loop.GoalLoop` on the worker that can
see the goal's workspace, and returns the goal as JSON. On the way it writes
the same goal file and events as the local engine into the shared store, so
``goal show`` reads the same file and export is a copy. Every activity holds
the goal's flock while it runs, so a stray local loop cannot interleave.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from temporalio import activity
from temporalio.exceptions import ApplicationError

from ...convergence.decide import (
    Abandoned,
    Converged,
    Decision,
    Escalate,
    Finished,
    Paused,
    StartIteration,
)
from ...convergence.goal import Goal, check_rules
from ...convergence.ledger import goal_mac, key_for
from ...convergence.loop import GoalLoop
from ...convergence.persist import load_goal
from ...errors import ConfigError, CorruptStateError, GoalkeeperError, LockedError
from ...store import goals as gstore
from ...store.atomic import read_json, validated, write_json_atomic
from ...store.ids import check_id
from ...store.safe import remove_file

__all__ = [
    "ACTIVITIES",
    "IDENTITY_ENV",
    "WORKSPACE_ROOTS_ENV",
    "WorkspaceUnavailable",
    "decision_from_dict",
    "decision_to_dict",
    "drop_maker_records",
    "heartbeating",
    "maker_record_path",
    "recover_maker",
    "visible_workspace",
    "worker_identity",
]

T = TypeVar("T")
_log = logging.getLogger(__name__)
WORKSPACE_ROOTS_ENV = "GOALKEEPER_WORKSPACE_ROOTS"
IDENTITY_ENV = "GOALKEEPER_WORKER_IDENTITY"
WorkspaceUnavailable = "WorkspaceUnavailable"  # ApplicationError.type: nothing ran, try elsewhere
_DECISIONS: dict[str, type[Any]] = {
    c.__name__: c for c in (Abandoned, Converged, Escalate, Finished, Paused, StartIteration)
}


def decision_to_dict(d: Decision) -> dict[str, Any]:
    """A decision as plain JSON for the activity boundary."""
    return {"kind": type(d).__name__, **{f.name: getattr(d, f.name) for f in dataclasses.fields(d)}}


def decision_from_dict(data: dict[str, Any]) -> Decision:
    fields = dict(data)
    cls = _DECISIONS[fields.pop("kind")]
    out: Decision = cls(**fields)
    return out


async def heartbeating(fn: Callable[[], T]) -> T:
    """Run blocking ``fn`` in a thread and heartbeat until it returns, so a dead worker is noticed."""
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(None, fn)
    hb = activity.info().heartbeat_timeout or timedelta(seconds=30)
    interval = max(0.2, hb.total_seconds() / 3)
    while True:
        done, _ = await asyncio.wait({fut}, timeout=interval)
        if done:
            return fut.result()
        activity.heartbeat()


def worker_identity() -> str:
    return os.environ.get(IDENTITY_ENV) or f"pid {os.getpid()}"


def _roots() -> list[Path]:
    raw = os.environ.get(WORKSPACE_ROOTS_ENV, "")
    return [Path(p).resolve() for p in raw.split(os.pathsep) if p]


def visible_workspace(goal: Goal) -> Path:
    """The goal's workspace if this worker can see it, else a retryable refusal (nothing ran)."""
    if not goal.workspace:
        raise ApplicationError(
            f"goal {goal.goal_id} names no workspace; a worker cannot guess one (set `workspace`)",
            type="ConfigError", non_retryable=True,
        )
    ws = Path(goal.workspace)
    roots = _roots()
    identity = worker_identity()
    if roots and not any(ws.resolve().is_relative_to(r) for r in roots):
        raise ApplicationError(
            f"worker {identity} serves workspaces under {[str(r) for r in roots]}, not {ws}; "
            f"route goal {goal.goal_id} to a worker that has it (--task-queue) or widen --workspace-root",
            type=WorkspaceUnavailable, next_retry_delay=timedelta(seconds=2),
        )
    if not ws.is_dir():
        raise ApplicationError(
            f"worker {identity} cannot see workspace {ws} of goal {goal.goal_id}; share the "
            "filesystem or check the workspace out at the same path on every worker",
            type=WorkspaceUnavailable, next_retry_delay=timedelta(seconds=2),
        )
    return ws.resolve()


def _store(inp: dict[str, Any]) -> Path:
    root = Path(inp["store"])
    if not root.parent.is_dir():
        identity = worker_identity()
        raise ApplicationError(
            f"worker {identity} cannot see the goal store {root}; run workers with the store on a "
            "shared filesystem at the same path",
            type=WorkspaceUnavailable, next_retry_delay=timedelta(seconds=2),
        )
    return root


class _Phases(GoalLoop):
    """A GoalLoop whose phases are called one at a time; the workflow, not a file, holds the goal."""

    def _request(self) -> str | None:
        return None  # signals reach the workflow; it checks them between phases

    extra_fields = property(lambda self: {"worker": worker_identity()})  # which worker ran the phase


@contextmanager
def _phase(inp: dict[str, Any]) -> Iterator[tuple[_Phases, Goal, Path]]:
    """Lock the goal in the shared store and translate goalkeeper errors for Temporal."""
    root = _store(inp)
    goal = Goal.model_validate(inp["goal"])
    ws = visible_workspace(goal)
    try:
        with gstore.goal_lock(goal.goal_id, root):
            yield _Phases(goal.goal_id, root=root), goal, ws
    except LockedError as e:
        raise ApplicationError(str(e), type="LockedError", next_retry_delay=timedelta(seconds=2)) from None
    except ConfigError as e:
        raise ApplicationError(str(e), type="ConfigError", non_retryable=True) from None
    except GoalkeeperError as e:
        raise ApplicationError(str(e), type=type(e).__name__, non_retryable=True) from None


def _start(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, ws):
        check_rules(goal)
        loop._emit("run.started", state=goal.state, iterations=len(goal.history), engine="temporal")
        if goal.state == "active" and goal.baseline_at is None:
            loop._baseline(goal, ws)
        else:
            loop._save(goal)
        return goal.dump()


def _open(inp: dict[str, Any]) -> dict[str, Any]:
    d = decision_from_dict(inp["decision"])
    assert isinstance(d, StartIteration)
    with _phase(inp) as (loop, goal, ws):
        loop._open_iteration(goal, ws, d)
        return goal.dump()


def maker_record_path(root: Path, goal_id: str, iteration: int, attempt: int) -> Path:
    """Where the maker activity leaves its result: one file per (goal, iteration, attempt)."""
    return gstore.goals_dir(root) / f"{check_id('goal', goal_id)}.makers" / f"{iteration}-{attempt}.json"


def _maker(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, ws):
        rec, root = goal.history[-1], loop._home()
        _refuse_superseded(goal, root)
        for attempt in range(rec.restarts):  # an earlier attempt finished after all: adopt it, run nothing
            found = _recorded(goal, root, attempt)
            if found is not None:
                return _adopt(loop, found)
        loop._run_maker(goal, ws, rec)
        # Before returning: Temporal drops a result that arrives after the heartbeat timeout, and
        # the workflow must then find this record instead of running (and paying for) the maker again.
        data = goal.dump()
        signed = {**data, "mac": goal_mac(key_for(root), data)}  # signed like the goal file: no forged results
        write_json_atomic(maker_record_path(root, goal.goal_id, rec.iteration, rec.restarts), signed, root=root)
        return data


def _refuse_superseded(goal: Goal, root: Path) -> None:
    """A stale maker activity (its workflow already moved on to a restart) must not run the maker."""
    try:
        stored = load_goal(goal.goal_id, root)
    except GoalkeeperError:
        return
    mine, theirs = goal.history[-1], (stored.history[-1] if stored.history else None)
    if theirs is not None and (len(stored.history) > len(goal.history)
                               or (theirs.iteration == mine.iteration and theirs.restarts > mine.restarts)):
        raise ApplicationError(
            f"goal {goal.goal_id}: this maker call (iteration {mine.iteration}, attempt {mine.restarts}) was "
            "superseded by a later attempt; nothing ran", type="Superseded", non_retryable=True)


def _recorded(goal: Goal, root: Path, attempt: int) -> Goal | None:
    """The record of ``attempt`` of the goal's open iteration, validated; None if absent or torn."""
    rec = goal.history[-1]
    path = maker_record_path(root, goal.goal_id, rec.iteration, attempt)
    try:
        raw = read_json(path, root=root)
        mac = raw.pop("mac", None) if isinstance(raw, dict) else None
        if not (isinstance(mac, str) and hmac.compare_digest(mac, goal_mac(key_for(root), raw))):
            raise CorruptStateError(f"{path}: its signature does not match; goalkeeper did not write it")
        found = validated(Goal, raw, path)
    except FileNotFoundError:
        return None
    except CorruptStateError as e:  # a torn or forged record is no result: the maker runs again
        _log.warning("ignoring maker record: %s", e)
        return None
    last = found.history[-1] if found.history else None
    if (found.goal_id != goal.goal_id or last is None or len(found.history) != len(goal.history)
            or last.iteration != rec.iteration or last.restarts != attempt or last.phase == "maker"):
        return None
    return found


def recover_maker(goal: Goal, root: Path) -> Goal | None:
    """The goal as the cut-off maker activity left it, or None when that maker never finished.

    The record comes first; failing that, the shared goal file counts when its last
    iteration is this attempt past its maker phase (a worker killed between committing
    the maker's result and writing the record). Call it holding the goal's lock, so a maker
    still running on a live but stalled worker is waited for, not raced.
    """
    rec = goal.history[-1]
    found = _recorded(goal, root, rec.restarts)
    if found is not None:
        return found
    try:
        stored = load_goal(goal.goal_id, root)
    except GoalkeeperError:
        return None
    last = stored.history[-1] if stored.history else None
    if (last is None or len(stored.history) != len(goal.history) or last.iteration != rec.iteration
            or last.restarts != rec.restarts or last.phase == "maker"):
        return None
    return stored


def _adopt(loop: _Phases, found: Goal) -> dict[str, Any]:
    """Make ``found`` the goal again, with an event that carries its record (a replay agrees)."""
    rec = found.history[-1]
    loop._commit(found, "maker.recovered", rec, iteration=rec.iteration, attempt=rec.restarts,
                 costDollars=rec.maker_cost_dollars)
    return found.dump()


def _recover(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, _ws):
        found = recover_maker(goal, loop._home())
        return goal.dump() if found is None else _adopt(loop, found)


def drop_maker_records(root: Path, goal_id: str, upto: int | None = None) -> list[str]:
    """Remove the maker records of iterations up to ``upto`` (all when None); their names.

    A record is needed only until the workflow is past that iteration's maker phase
    (it lets a cut-off maker activity be adopted instead of run and paid for twice).
    """
    folder = maker_record_path(root, goal_id, 0, 0).parent
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    gone = []
    for name in names:
        head = name.split("-", 1)[0]
        if upto is not None and not (head.isdigit() and int(head) <= upto):
            continue
        with contextlib.suppress(OSError):
            remove_file(folder / name, root=root)
            gone.append(name)
    if upto is None:
        with contextlib.suppress(OSError):
            os.rmdir(folder)
    return gone


def _conditions(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, ws):
        rec = goal.history[-1]
        drop_maker_records(loop._home(), goal.goal_id, upto=rec.iteration)  # its maker is settled
        loop._conditions_phase(goal, ws, rec)
        return goal.dump()


def _oracle(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, ws):
        loop._oracle_phase(goal, ws, goal.history[-1])
        return goal.dump()


def _finish(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, _ws):
        loop._finish(goal, decision_from_dict(inp["decision"]), inp.get("request"))
        if goal.state in ("converged", "escalated", "failed"):
            drop_maker_records(loop._home(), goal.goal_id)
        if goal.state != "paused":
            loop._emit("run.finished", state=goal.state, engine="temporal")
        return goal.dump()


def _persist(inp: dict[str, Any]) -> dict[str, Any]:
    with _phase(inp) as (loop, goal, _ws):
        loop._save(goal)
        if inp.get("event"):
            loop._emit(inp["event"], **inp.get("fields", {}))
        return goal.dump()


@activity.defn(name="goal_start")
async def goal_start(inp: dict[str, Any]) -> dict[str, Any]:
    """Check the rules, hash the baseline (protected files, markers), mark the run started."""
    return await heartbeating(lambda: _start(inp))


@activity.defn(name="goal_open_iteration")
async def goal_open_iteration(inp: dict[str, Any]) -> dict[str, Any]:
    """Record iteration N (or its restart) before its maker runs; idempotent, so retried."""
    return await heartbeating(lambda: _open(inp))


@activity.defn(name="goal_run_maker")
async def goal_run_maker(inp: dict[str, Any]) -> dict[str, Any]:
    """One maker call plus guards and checkpoint. Never retried blindly: the workflow decides."""
    return await heartbeating(lambda: _maker(inp))


@activity.defn(name="goal_recover_maker")
async def goal_recover_maker(inp: dict[str, Any]) -> dict[str, Any]:
    """After a maker activity was cut off: its recorded result if it finished, else the goal as given."""
    return await heartbeating(lambda: _recover(inp))


@activity.defn(name="goal_run_conditions")
async def goal_run_conditions(inp: dict[str, Any]) -> dict[str, Any]:
    """Run every stopping condition; read-only checks, so retried."""
    return await heartbeating(lambda: _conditions(inp))


@activity.defn(name="goal_run_oracle")
async def goal_run_oracle(inp: dict[str, Any]) -> dict[str, Any]:
    """Ask the oracle (read-only, checked); retried a little, since an LLM judge costs money."""
    return await heartbeating(lambda: _oracle(inp))


@activity.defn(name="goal_finish")
async def goal_finish(inp: dict[str, Any]) -> dict[str, Any]:
    """Carry out a final decision: converged, escalated (triage item), paused or abandoned."""
    return await heartbeating(lambda: _finish(inp))


@activity.defn(name="goal_persist")
async def goal_persist(inp: dict[str, Any]) -> dict[str, Any]:
    """Write the goal file mirror (after a resume signal, say) and an optional event."""
    return await heartbeating(lambda: _persist(inp))


ACTIVITIES = [
    goal_start, goal_open_iteration, goal_run_maker, goal_recover_maker, goal_run_conditions, goal_run_oracle,
    goal_finish, goal_persist,
]
