"""Watching a goal from anywhere: who runs it, what it is doing, and one line per event.

Nothing here takes a goal's lock, so ``goal status``, ``goal logs -f`` and the
live line of ``goal run`` work while another process runs the goal. Whether a
loop runs is read from the kernel's lock table (``/proc/locks``: the goal's
lock file has an ``flock`` holder), falling back to the pid the holder wrote
into the lock file where there is no ``/proc``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from ..convergence.goal import Goal, parse_duration
from ..errors import GoalkeeperError
from ..store import goals as gstore
from ..store.atomic import read_jsonl
from ._common import clean, esc

__all__ = [
    "EXIT_BY_STATE",
    "GoalStatus",
    "event_lines",
    "goal_status",
    "human_duration",
    "lock_holder",
    "status_line",
    "Tail",
]

# the exit code of a command that waits for a goal to stop (goal run, goal logs -f)
EXIT_BY_STATE = {"converged": 0, "failed": 1, "escalated": 3, "paused": 4}
POLL_SECONDS = 0.2

GoalStatus = dict[str, Any]


def lock_holder(path: Path) -> int | None:
    """The pid holding an ``flock`` on ``path`` right now, or None. Never takes the lock."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    try:
        table = Path("/proc/locks").read_text(encoding="ascii", errors="replace")
    except OSError:
        return _pid_alive(path)
    for line in table.splitlines():
        parts = line.split()
        # "1: FLOCK  ADVISORY  WRITE 4242 fe:00:2146595 0 EOF" (waiters carry "->" and are skipped)
        if len(parts) < 6 or parts[1] != "FLOCK" or "->" in parts:
            continue
        try:
            major, minor, inode = parts[5].split(":")
            if (int(inode), int(major, 16), int(minor, 16)) == (st.st_ino, os.major(st.st_dev), os.minor(st.st_dev)):
                return int(parts[4])
        except ValueError:
            continue
    return None


def _pid_alive(path: Path) -> int | None:
    try:
        raw = path.read_text(encoding="ascii", errors="replace").strip()[:20]
        pid = int(raw)
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def goal_lock_holder(goal_id: str, root: Path | None = None) -> int | None:
    return lock_holder(gstore.goals_dir(root) / f"{goal_id}.lock")


def _ts(iso: str | None) -> float | None:
    if not iso:
        return None
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def goal_status(goal: Goal, *, pid: int | None, now: float | None = None, known: bool = True) -> GoalStatus:
    """What a human (or an agent host) wants to know about a goal now, as camelCase JSON.

    ``pid`` is the process running its loop (None: nobody); ``known`` is False when
    that cannot be told from here (a remote engine runs the goal): ``running`` is then
    null. ``phase`` is the last iteration's phase, as in the goal file (maker,
    conditions, oracle, done; null before the first iteration); ``activity`` is what
    is happening now: baseline, maker, conditions, oracle or deciding while a loop
    runs, paused, interrupted (a crash cut an iteration short), or idle.
    """
    now = time.time() if now is None else now
    last = goal.history[-1] if goal.history else None
    running: bool | None = (pid is not None) if known else None
    in_flight = last is not None and last.phase != "done"
    activity: str
    if running:
        activity = "baseline" if goal.baseline_at is None else (last.phase if in_flight and last else "deciding")
    elif goal.state == "paused":
        activity = "paused"
    elif running is None:
        activity = last.phase if in_flight and last else "idle"
    else:
        activity = "interrupted" if in_flight and goal.state == "active" else "idle"
    elapsed = goal.elapsed_seconds
    updated = _ts(goal.updated_at)
    if running and goal.state == "active" and updated is not None:
        elapsed += max(0.0, now - updated)  # active time since the last save, which is not on disk yet
    phase_seconds = None
    if in_flight and last is not None and running:
        started = _ts(last.phase_started_at or last.started_at)
        phase_seconds = round(max(0.0, now - started), 1) if started is not None else None
    b = goal.budget
    spent = goal.spent_dollars()
    try:
        max_seconds = parse_duration(b.max_duration)
    except GoalkeeperError:
        max_seconds = None
    esc_ = goal.escalation
    return {
        "goalId": goal.goal_id,
        "state": goal.state,
        "objective": goal.objective,
        "workspace": goal.workspace,
        "running": running,
        "pid": pid,
        "phase": last.phase if last else None,
        "activity": activity,
        "resumesAt": last.phase if in_flight and last and running is False else None,
        "phaseSeconds": phase_seconds,
        "iteration": last.iteration if last else 0,
        "iterations": len(goal.history),
        "maxIterations": b.max_iterations,
        "elapsedSeconds": round(elapsed, 1),
        "maxDurationSeconds": max_seconds,
        "spentDollars": spent,
        "maxDollars": b.max_dollars,
        "leftDollars": None if b.max_dollars is None else round(max(0.0, b.max_dollars - spent), 6),
        "costKnown": all(h.cost_known for h in goal.history),
        "lastHint": goal.last_hint(),
        "lastConditions": [
            {"type": c.type, "command": c.command, "passed": c.passed, "summary": c.summary}
            for c in (last.condition_results if last else [])
        ],
        "escalation": None if esc_ is None else {
            "reason": esc_.reason, "detail": esc_.detail, "at": esc_.at, "triageId": esc_.triage_id},
        "createdAt": goal.created_at,
        "updatedAt": goal.updated_at,
    }


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "∞"
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


def _money(s: GoalStatus) -> str:
    spent = f"${s['spentDollars']:.2f} spent"
    if s["leftDollars"] is None:
        return spent + " (no dollar limit)"
    return f"{spent}, ${s['leftDollars']:.2f} left of ${s['maxDollars']:.2f}" + (
        "" if s["costKnown"] else " (some prices unknown)")


def status_line(s: GoalStatus, *, extra_seconds: float = 0.0, width: int | None = None) -> str:
    """One plain line: iteration k/N, phase (and for how long), active time, dollars, last hint."""
    n = s["maxIterations"] or "∞"
    phase = s["activity"]
    if s["phaseSeconds"] is not None:
        phase += f" {human_duration(s['phaseSeconds'] + extra_seconds)}"
    elapsed = s["elapsedSeconds"] + (extra_seconds if s["running"] and s["state"] == "active" else 0.0)
    parts = [f"iteration {s['iteration']}/{n}", phase,
             f"{human_duration(elapsed)} of {human_duration(s['maxDurationSeconds'])} active", _money(s)]
    line = " · ".join(parts)
    if s["lastHint"]:
        hint = " ".join(str(s["lastHint"]).split())
        room = (width - len(line) - 10) if width else 80
        line += " · hint: " + (hint if len(hint) <= max(room, 20) else hint[: max(room, 20) - 1] + "…")
    return line


# --- one line (or a few) per event ------------------------------------------------------------

def _dollars(value: object) -> str:
    """A dollar amount from an event, as ``1.23``; what a damaged log holds there is shown as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return "0.00" if value is None else esc(_short(value, 40))
    try:
        return f"{float(value):.2f}"
    except OverflowError:  # an integer past a float's range
        return esc(_short(value, 40))


def _items(value: object, n: int) -> list[Any]:
    """The first ``n`` entries of a list field of an event ([] for anything else a damaged log holds)."""
    return list(value[:n]) if isinstance(value, list) else []


def _joined(value: object, n: int, sep: str = "; ") -> str:
    return esc(sep.join(str(x) for x in _items(value, n)))


def _results(ev: Mapping[str, Any]) -> list[str]:
    out = []
    for r in _items(ev.get("results"), 1000):
        if not isinstance(r, Mapping):
            continue
        mark = "[green]✔[/]" if r.get("passed") else "[red]✘[/]"
        sealed = "" if r.get("sealed", True) else " [dim](unsealed)[/]"
        out.append(f"  {mark} {esc(r.get('command'))}: {esc(r.get('summary'))}{sealed}")
    return out


def event_lines(ev: Mapping[str, Any], *, verbose: bool = False) -> list[str]:
    """Rich-markup lines for one goal event (``verbose``: bookkeeping events too)."""
    kind, n = ev.get("event"), ev.get("iteration")
    gid = esc(ev.get("goalId"))
    if kind == "iteration.started":
        hint = f" [dim](hint: {esc(_short(ev.get('hint')))})[/]" if verbose and ev.get("hint") else ""
        return [f"[bold]iteration {esc(n)}[/]{' (resumed)' if ev.get('resumed') else ''}: maker running…{hint}"]
    if kind == "maker.finished":
        changed = "changed the tree" if ev.get("treeChanged") else "[yellow]no change[/]"
        code = ev.get("exitCode")
        exit_ = f", exit {esc(code)}" if code not in (0, None) else ""
        return [f"  maker: {esc(ev.get('summary'))} ({changed}{exit_}, ${_dollars(ev.get('costDollars'))})"]
    if kind == "maker.unrunnable":
        return [f"  [red]the maker could not start:[/] {esc(ev.get('error'))}"]
    if kind == "iteration.rejected":
        lines = [f"  [red]rejected[/] (changes reverted): {_joined(ev.get('reasons'), 3)}"]
        return lines
    if kind == "iteration.voided":
        return [f"  [red]void:[/] {esc(ev.get('reason'))} ({_joined(ev.get('paths'), 5, ', ')})"]
    if kind == "conditions.finished":
        return _results(ev)
    if kind == "oracle.finished":
        word = str(ev.get("verdict") or "").replace("_", " ")
        return [f"  oracle: {esc(word)} (confidence {esc(ev.get('confidence'))})"]
    if kind == "goal.converged":
        return [f"[bold green]converged[/] at iteration {esc(ev.get('iteration'))}, "
                f"${_dollars(ev.get('spentDollars'))}"]
    if kind == "goal.escalated":
        return [f"[bold red]escalated[/] ({esc(ev.get('reason'))}): {esc(ev.get('detail'))}"]
    if kind == "goal.triaged":
        tid = esc(ev.get("triageId"))
        return [f"  triage item {tid}: `goalkeeper triage show {tid}`"]
    if kind == "goal.paused":
        return [f"[yellow]paused[/]: {esc(ev.get('detail'))}; resume with `goalkeeper goal resume {gid}`"]
    if kind == "goal.abandoned":
        by = f" (replaced by {esc(ev.get('replacedBy'))})" if ev.get("replacedBy") else ""
        return [f"[red]abandoned[/]{by}"]
    if kind == "goal.repaired":
        return [f"[yellow]repaired from the signed log[/]: {_joined(ev.get('problems'), 2)}"]
    if kind == "check.finished":
        return [f"check finished: {esc(ev.get('state'))}"]
    if not verbose:
        return []
    if kind == "goal.created":
        return [f"created: {esc(ev.get('objective'))}"]
    if kind == "goal.baselined":
        failing = _items(ev.get("failing"), 1 << 30)
        what = f", {len(failing)} check(s) failing to start with" if failing else ""
        boxed = {"bwrap": ", checks sandboxed", "none": ", checks not sandboxed"}.get(str(ev.get("checksBox")), "")
        return [f"baseline taken: {esc(ev.get('protectedFiles'))} files, sandbox {esc(ev.get('sandbox'))}"
                f"{boxed}{what}"]
    if kind == "goal.edited":
        keys = ", ".join(str(c.get("key")) for c in _items(ev.get("changes"), 1 << 30)
                         if isinstance(c, Mapping))
        return [f"[cyan]edited[/]: {esc(keys)}" + (" (reopened)" if ev.get("reopened") else "")]
    if kind in ("run.started", "run.finished", "check.started"):
        state = f" ({esc(ev.get('state'))})" if ev.get("state") else ""
        return [f"[dim]{esc(kind)}{state}[/]"]
    if kind == "goal.resumed":
        return ["resumed"]
    if kind == "goal.rolledback":
        return [f"rolled back to {esc(ev.get('to'))}"]
    if kind == "iteration.crash_charged":
        return [f"  [yellow]charged {esc(ev.get('seconds'))}s of a phase a crash interrupted[/]"]
    return [f"[dim]{esc(kind)}[/]"]


def _short(text: object, n: int = 100) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= n else s[: n - 1] + "…"


# --- following a JSONL event log --------------------------------------------------------------

class Tail:
    """The records of a growing JSONL event log, each handed out once, in ``seq`` order.

    The log is re-read only when its size changed; a line still being written
    (torn) is skipped until it is complete.
    """

    def __init__(self, path: Path, root: Path) -> None:
        self.path, self.root = path, root
        self.seen = 0
        self._size = -1

    def new(self) -> list[dict[str, Any]]:
        try:
            size = os.stat(self.path).st_size
        except OSError:
            return []
        if size == self._size:
            return []
        self._size = size
        out = []
        for rec in read_jsonl(self.path, root=self.root):
            seq = rec.get("seq")
            if isinstance(seq, int) and seq > self.seen:
                self.seen = seq
                out.append(rec)
        return out


def time_of(rec: Mapping[str, Any]) -> str:
    """``HH:MM:SS`` of an event, as plain text safe for a terminal (a damaged log's ``ts`` may hold anything)."""
    ts = str(rec.get("ts") or "")
    return clean(ts[11:19] if len(ts) >= 19 else ts[:40])


@contextlib.contextmanager
def quiet_interrupt() -> Iterator[None]:
    """Ctrl-C ends a follow with exit 130 and no message (nothing was running here)."""
    try:
        yield
    except KeyboardInterrupt:
        raise SystemExit(130) from None
