"""Waves: several goals at once, each in its own workspace and its own worker process.

Each goal runs in a worker process (``python -m goalkeeper.convergence.waves
GOAL_ID``) that prints its goal's events as JSON lines, so goals run truly in
parallel (hashing a tree is CPU work, and the GIL would serialise threads),
a crash in one cannot take the others down, and every worker's containment
is tied to a thread that lives as long as its goal. Each worker is its own
session and process group, and takes its goal's lock as ``goal run`` does.
A worker is started with
``PR_SET_PDEATHSIG``, so when the wave dies its workers die with it (their
goals resume from their signed logs like any crashed run).

Deciding is pure: :func:`check_wave` refuses goals that would share a
workspace, :class:`Wave` says which goal to start next, :func:`worst_exit`
picks the exit code and :class:`WaveView` turns events into display rows.
:func:`run_wave` is the thin driver.

Exit codes, worst first: 1 an error (or an abandoned goal), 3 escalated,
4 not done yet (paused), 0 converged. A wave ends 0 only when every goal
converged.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..errors import ConfigError, GoalkeeperError
from .goal import Goal

__all__ = [
    "DEFAULT_PARALLEL",
    "EXIT_OF",
    "GoalOutcome",
    "Wave",
    "WaveView",
    "check_wave",
    "describe_event",
    "run_wave",
    "select_active",
    "worst_exit",
]

DEFAULT_PARALLEL = 4
# outcome -> exit code; the order of RANK decides which outcome a wave reports
EXIT_OF = {"converged": 0, "paused": 4, "active": 4, "escalated": 3, "failed": 1, "error": 1}
_RANK = {"converged": 0, "paused": 1, "active": 1, "escalated": 2, "failed": 3, "error": 3}
_STDERR_TAIL = 2000

EventSink = Callable[[dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class GoalOutcome:
    """How one goal of the wave ended: its state (or ``error``), and why when it did not converge."""

    goal_id: str
    outcome: str
    detail: str | None = None
    iterations: int = 0
    spent_dollars: float = 0.0

    @property
    def exit_code(self) -> int:
        return EXIT_OF.get(self.outcome, 1)

    def to_dict(self) -> dict[str, Any]:
        return {"goalId": self.goal_id, "outcome": self.outcome, "exitCode": self.exit_code, "detail": self.detail,
                "iterations": self.iterations, "spentDollars": self.spent_dollars}


def worst_exit(outcomes: Iterable[GoalOutcome]) -> int:
    """The wave's exit code: the worst outcome wins (error > escalated > not done > converged)."""
    worst = max(outcomes, key=lambda o: _RANK.get(o.outcome, 3), default=None)
    return 0 if worst is None else worst.exit_code


def _workspace(goal: Goal) -> Path:
    return Path(goal.workspace or os.getcwd()).resolve()


def check_wave(goals: Sequence[Goal]) -> None:
    """Refuse a wave that cannot run: a repeated goal, a host-maker goal, two goals on one workspace."""
    seen: dict[str, Goal] = {}
    for g in goals:
        if g.goal_id in seen:
            raise ConfigError(f"goal {g.goal_id} is named twice; name each goal once")
        seen[g.goal_id] = g
        if g.maker.type == "host":
            raise ConfigError(f"goal {g.goal_id} is made by the agent host; judge its work with "
                              f"`goalkeeper goal check {g.goal_id}` (the Stop hook does this), not in a wave")
    for i, a in enumerate(goals):
        for b in goals[i + 1:]:
            wa, wb = _workspace(a), _workspace(b)
            if wa == wb or wa in wb.parents or wb in wa.parents:
                where = wa if wa == wb else (wa if wa in wb.parents else wb)
                raise ConfigError(
                    f"goals {a.goal_id} and {b.goal_id} would work in the same workspace ({where}) at once, and "
                    "each would see the other's changes as its own; run them one after the other, or give each "
                    "its own workspace (e.g. `git worktree add ../other-branch`)")


def select_active(goals: Iterable[Goal]) -> tuple[list[Goal], list[str]]:
    """``--all-active``: the active goals goalkeeper runs itself, oldest first, and why others were left out."""
    chosen, notes = [], []
    for g in sorted(goals, key=lambda g: g.created_at or ""):
        if g.state != "active":
            continue
        if g.maker.type == "host":
            notes.append(f"{g.goal_id}: skipped, its maker is the agent host (the host's Stop hook judges it)")
            continue
        chosen.append(g)
    return chosen, notes


class Wave:
    """Which goals run now: at most ``parallel`` at a time, in the order given (sans-I/O)."""

    def __init__(self, goal_ids: Sequence[str], parallel: int) -> None:
        if parallel < 1:
            raise ConfigError(f"--parallel {parallel}: run at least one goal at a time")
        self.parallel = parallel
        self.waiting: deque[str] = deque(goal_ids)
        self.running: set[str] = set()
        self.outcomes: dict[str, GoalOutcome] = {}
        self.order = list(goal_ids)

    def start_next(self) -> list[str]:
        out = []
        while self.waiting and len(self.running) < self.parallel:
            gid = self.waiting.popleft()
            self.running.add(gid)
            out.append(gid)
        return out

    def finished(self, outcome: GoalOutcome) -> None:
        self.running.discard(outcome.goal_id)
        self.outcomes[outcome.goal_id] = outcome

    @property
    def done(self) -> bool:
        return not self.waiting and not self.running

    def results(self) -> list[GoalOutcome]:
        return [self.outcomes[g] for g in self.order if g in self.outcomes]


_PHASE = {"run.started": "starting", "goal.baselined": "baseline taken", "iteration.started": "maker running",
          "maker.finished": "checks running", "conditions.finished": "oracle judging",
          "oracle.finished": "judged", "iteration.rejected": "rejected", "iteration.voided": "voided"}


def describe_event(ev: dict[str, Any]) -> str | None:
    """One line of plain text for a goal event worth showing, else None."""
    kind, n = ev.get("event"), ev.get("iteration")
    if kind == "iteration.started":
        return f"iteration {n}: maker running" + (" (resumed)" if ev.get("resumed") else "")
    if kind == "maker.finished":
        return f"iteration {n}: maker done ({'changed the tree' if ev.get('treeChanged') else 'no change'})"
    if kind == "iteration.rejected":
        return f"iteration {n}: rejected: " + "; ".join(str(r) for r in ev.get("reasons", [])[:3])
    if kind == "conditions.finished":
        results = ev.get("results") or []
        passed = sum(1 for r in results if r.get("passed"))
        return f"iteration {n}: {passed}/{len(results)} conditions passed"
    if kind == "oracle.finished":
        return f"iteration {n}: oracle: {ev.get('verdict')}"
    if kind == "goal.converged":
        return f"converged at iteration {n}"
    if kind == "goal.escalated":
        return f"escalated ({ev.get('reason')}): {ev.get('detail')}"
    if kind == "goal.paused":
        return f"paused: {ev.get('detail')}"
    if kind == "wave.goal_error":
        return f"error: {ev.get('error')}"
    return None


@dataclass
class _Row:
    goal_id: str
    state: str = "waiting"
    iteration: int = 0
    max_iterations: int | None = None
    started: float | None = None
    last: str = ""


@dataclass
class WaveView:
    """What a live display shows per goal, folded from the event stream (sans-I/O; the clock is passed in)."""

    rows: dict[str, _Row] = field(default_factory=dict)

    def add(self, goal_id: str, max_iterations: int | None) -> None:
        self.rows[goal_id] = _Row(goal_id, max_iterations=max_iterations)

    def feed(self, ev: dict[str, Any], now: float) -> None:
        row = self.rows.get(str(ev.get("goalId")))
        if row is None:
            return
        kind = str(ev.get("event"))
        if kind == "wave.goal_started":
            row.state, row.started = "starting", now
        elif kind == "wave.goal_finished":
            row.state = str(ev.get("outcome"))
        elif kind in _PHASE:
            row.state = _PHASE[kind]
        if isinstance(ev.get("iteration"), int):
            row.iteration = max(row.iteration, ev["iteration"])
        text = describe_event(ev)
        if text:
            row.last = text

    def table(self, now: float) -> list[tuple[str, str, str, str, str]]:
        """(goal, state, iteration k/N, elapsed, last event) per goal, in wave order."""
        out = []
        for r in self.rows.values():
            budget = f"/{r.max_iterations}" if r.max_iterations else ""
            elapsed = f"{now - r.started:.0f}s" if r.started is not None else "-"
            out.append((r.goal_id, r.state, f"{r.iteration}{budget}", elapsed, r.last))
        return out


# --- the driver ---------------------------------------------------------------------------

def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """``PR_SET_PDEATHSIG``: the worker gets SIGTERM when the thread that started it ends."""
    import ctypes

    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)


@dataclass
class _Worker:
    goal_id: str
    proc: subprocess.Popen[bytes]
    stderr: IO[bytes]
    buffer: bytes = b""
    final: dict[str, Any] | None = None


def _spawn(goal_id: str, env: dict[str, str]) -> _Worker:
    err = tempfile.TemporaryFile()  # noqa: SIM115 - outlives this call; closed when the worker ends
    proc = subprocess.Popen(
        [sys.executable, "-m", "goalkeeper.convergence.waves", goal_id],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, env=env,
        # its own session and process group: a terminal's Ctrl-C reaches the wave only, which passes it
        # on to each worker (so each goal saves its state), and one goal's signals never reach another's
        start_new_session=True,
        preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
    )
    return _Worker(goal_id, proc, err)


def _outcome(w: _Worker, code: int) -> GoalOutcome:
    f = w.final or {}
    if f.get("event") == "wave.goal_result":
        state = str(f.get("state"))
        esc = f.get("escalation") or {}
        detail = None
        if state in ("escalated", "failed") and esc:
            detail = f"{esc.get('reason')}: {esc.get('detail')}" + (
                f" (triage {esc.get('triageId')})" if esc.get("triageId") else "")
        elif state == "paused":
            detail = f"resume with `goalkeeper goal resume {w.goal_id}`"
        return GoalOutcome(w.goal_id, state, detail, int(f.get("iterations") or 0),
                           float(f.get("spentDollars") or 0.0))
    if f.get("event") == "wave.goal_error":
        return GoalOutcome(w.goal_id, "error", str(f.get("error")))
    w.stderr.seek(0)
    tail = w.stderr.read()[-_STDERR_TAIL:].decode("utf-8", errors="replace").strip()
    why = f"the worker exited with code {code}" if code >= 0 else f"the worker was killed by signal {-code}"
    return GoalOutcome(w.goal_id, "error", why + (f": {tail.splitlines()[-1]}" if tail else ""))


def _lines(w: _Worker, chunk: bytes) -> list[dict[str, Any]]:
    w.buffer += chunk
    *complete, w.buffer = w.buffer.split(b"\n")
    out = []
    for line in complete:
        try:
            ev = json.loads(line)
        except ValueError:
            continue  # stray output from the worker is not an event
        if isinstance(ev, dict):
            ev.setdefault("goalId", w.goal_id)
            out.append(ev)
    return out


def run_wave(goal_ids: Sequence[str], *, parallel: int = DEFAULT_PARALLEL, on_event: EventSink | None = None,
             root: Path | None = None) -> list[GoalOutcome]:
    """Run ``goal_ids`` (already checked with :func:`check_wave`), ``parallel`` at a time, to their next stop.

    Every goal event reaches ``on_event`` as the goal's own loop emitted it
    (each carries ``goalId``), plus ``wave.goal_started`` / ``wave.goal_finished``.
    """
    from ..store.home import home

    sink = on_event or (lambda ev: None)
    wave = Wave(goal_ids, parallel)
    env = {**os.environ, "GOALKEEPER_HOME": str((root or home()).resolve())}  # the children share this store
    sel = selectors.DefaultSelector()
    workers: dict[str, _Worker] = {}
    try:
        while not wave.done:
            for gid in wave.start_next():
                w = _spawn(gid, env)
                workers[gid] = w
                assert w.proc.stdout is not None
                os.set_blocking(w.proc.stdout.fileno(), False)
                sel.register(w.proc.stdout, selectors.EVENT_READ, w)
                sink({"event": "wave.goal_started", "goalId": gid, "pid": w.proc.pid})
            for key, _ in sel.select(timeout=1.0):
                w = key.data
                try:
                    chunk = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if chunk:
                    for ev in _lines(w, chunk):
                        if str(ev.get("event")).startswith("wave.goal_"):
                            w.final = ev
                        if ev.get("event") != "wave.goal_result":
                            sink(ev)
                    continue
                sel.unregister(key.fileobj)
                code = w.proc.wait()
                outcome = _outcome(w, code)
                w.stderr.close()
                wave.finished(outcome)
                sink({"event": "wave.goal_finished", **outcome.to_dict()})
    except BaseException:
        for w in workers.values():  # leave nothing running; each goal resumes from its signed log
            if w.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    w.proc.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 10
        for w in workers.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                w.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            if w.proc.poll() is None:
                w.proc.kill()
                w.proc.wait()
        raise
    finally:
        sel.close()
    return wave.results()


# --- the worker ---------------------------------------------------------------------------

def _worker(goal_id: str) -> int:
    from .loop import run_goal

    def emit(ev: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(ev, default=str) + "\n")
        sys.stdout.flush()

    try:
        goal = run_goal(goal_id, on_event=emit)
    except KeyboardInterrupt:
        emit({"event": "wave.goal_error", "goalId": goal_id,
              "error": "interrupted; state saved up to the last completed step"})
        return 130
    except GoalkeeperError as e:
        emit({"event": "wave.goal_error", "goalId": goal_id, "error": str(e)})
        return 1
    except Exception as e:  # a bug: one line for the wave's summary, never a traceback there
        emit({"event": "wave.goal_error", "goalId": goal_id,
              "error": f"internal error: {type(e).__name__}: {e}; this is a bug in goalkeeper"})
        return 1
    emit({"event": "wave.goal_result", "goalId": goal_id, "state": goal.state, "iterations": len(goal.history),
          "spentDollars": goal.spent_dollars(), "escalation": goal.escalation.dump() if goal.escalation else None})
    return 0


if __name__ == "__main__":  # pragma: no cover - the worker process
    sys.exit(_worker(sys.argv[1]))
