"""``goal logs ID [-f] [--iteration N]``: what happened, event by event, with each phase's output.

The stream is the goal's signed event log (as ``goal run`` prints it) with the
saved output of each phase printed right after the event that ends it: the
maker's after ``maker.finished`` (or its rejection), every check's after
``conditions.finished``. ``-f`` keeps following from a second terminal while
another process runs the goal, and ends with the goal's exit code when that run
stops (0 converged, 3 escalated, 4 paused, 1 abandoned). Nothing here takes the
goal's lock.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from typing import Any

import click

from ..convergence import ledger
from ..convergence.logs import read_logs
from ..convergence.persist import load_goal
from ..errors import GoalkeeperError
from ..store import goals as gstore
from ..store.home import home
from ._common import clean, echo_json, esc, handle_errors, out_console, resolve
from ._live import (
    EXIT_BY_STATE,
    POLL_SECONDS,
    Tail,
    event_lines,
    goal_lock_holder,
    quiet_interrupt,
    time_of,
)
from .goal import command as goal_group

__all__ = ["logs_cmd"]

# the event after which a phase's output file is complete
_MAKER_DONE = ("maker.finished", "maker.unrunnable", "iteration.rejected")
_CHECKS_DONE = ("conditions.finished",)


class _Printer:
    def __init__(self, goal_id: str, as_json: bool, iteration: int | None) -> None:
        self.goal_id, self.as_json, self.iteration = goal_id, as_json, iteration
        self.shown: set[tuple[int, str, int | None]] = set()
        self.labels: dict[int, str] = {}
        try:
            g = load_goal(goal_id)
            self.labels = {i: c.label() for i, c in enumerate(g.stopping_conditions, 1)}
        except (GoalkeeperError, OSError):
            pass

    def wanted(self, rec: Mapping[str, Any]) -> bool:
        return self.iteration is None or rec.get("iteration") == self.iteration

    def event(self, rec: Mapping[str, Any]) -> None:
        ev = ledger.public(rec)
        if self.as_json:
            echo_json(ev)
        else:
            for i, line in enumerate(event_lines(ev, verbose=True)):
                stamp = f"[dim]{esc(time_of(ev))}[/] " if i == 0 else "         "
                out_console.print(stamp + line, markup=True)
        n = rec.get("iteration")
        if isinstance(n, int):
            if rec.get("event") in _MAKER_DONE:
                self.output(n, "maker")
            elif rec.get("event") in _CHECKS_DONE:
                self.output(n, "checks")

    def output(self, iteration: int, phase: str | None = None) -> None:
        for log in read_logs(self.goal_id, iteration):
            key = (log["iteration"], log["phase"], log["index"])
            if key in self.shown or (phase is not None and log["phase"] != phase):
                continue
            self.shown.add(key)
            self._print_log(log)

    def rest(self) -> None:
        """Output files no event announced (a crash between writing them and the event)."""
        for log in read_logs(self.goal_id, self.iteration):
            key = (log["iteration"], log["phase"], log["index"])
            if key not in self.shown:
                self.shown.add(key)
                self._print_log(log)

    def _print_log(self, log: dict[str, Any]) -> None:
        label = self.labels.get(log["index"]) if log["phase"] == "checks" else None
        if self.as_json:
            echo_json({"goalId": self.goal_id, "event": "output.logged", "iteration": log["iteration"],
                       "phase": log["phase"], "index": log["index"], "command": label, "text": log["text"]})
            return
        what = "maker output" if log["phase"] == "maker" else f"check {log['index']} output" + (
            f" ({label})" if label else "")
        text = str(log["text"]).rstrip("\n")
        out_console.print(f"--- iteration {log['iteration']} · {clean(what)} ---", markup=False)
        out_console.print(clean(text) if text else "(no output)", markup=False)
        out_console.print("---", markup=False)


def _ended(goal_id: str, records: list[dict[str, Any]], since: int) -> int | None:
    """The exit code once the run being followed has stopped, else None."""
    for rec in records:
        seq, state = rec.get("seq", 0), rec.get("state")
        if not isinstance(seq, int) or seq <= since or not isinstance(state, str):
            continue  # a record of a damaged log (the chain check reports it) ends nothing
        if rec.get("event") == "run.finished" and state in EXIT_BY_STATE:
            return EXIT_BY_STATE[str(state)]
        if rec.get("event") == "check.finished" and state in ("converged", "escalated", "failed"):
            return EXIT_BY_STATE[str(state)]
    return None


def _settled(goal_id: str) -> int | None:
    """A goal nobody runs whose state is final: its exit code (a crash may have cut run.finished)."""
    if goal_lock_holder(goal_id) is not None:
        return None
    try:
        state = load_goal(goal_id).state
    except (GoalkeeperError, OSError):
        return None
    return EXIT_BY_STATE[state] if state in ("converged", "escalated", "failed") else None


@goal_group.command("logs")
@click.argument("goal_id")
@click.option("-f", "--follow", is_flag=True,
              help="Keep printing as the goal runs (from any terminal); exit with its code when the run stops.")
@click.option("--iteration", type=click.IntRange(min=1), default=None, metavar="N", help="Only iteration N.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON lines: each event as `goal run --json` prints it, and output.logged records.")
@handle_errors
def logs_cmd(goal_id: str, follow: bool, iteration: int | None, as_json: bool) -> None:
    """The goal's events and the saved output of every maker run and check (bounded, secrets masked).

    With -f: exit 0 converged, 3 escalated, 4 paused, 1 abandoned (when the run
    being followed stops); a goal that already ended prints its log and exits
    with its code. Without -f: exit 0.
    """
    goal_id = resolve("goal", goal_id)
    if not gstore.goal_exists(goal_id):
        load_goal(goal_id)  # raises NotFoundError / CorruptStateError with the usual wording
    printer = _Printer(goal_id, as_json, iteration)
    tail = Tail(gstore.goals_dir() / f"{goal_id}.events.jsonl", home())
    seen: list[dict[str, Any]] = []
    with quiet_interrupt():
        first = True
        start = 0
        while True:
            new = tail.new()
            for rec in new:
                seen.append(rec)
                if printer.wanted(rec):
                    printer.event(rec)
            if first:
                first = False
                start = tail.seen
                if not follow:
                    printer.rest()
                    return
                code = _settled(goal_id)
                if code is not None:
                    printer.rest()
                    sys.exit(code)
                if not as_json:
                    out_console.print(f"[dim]following {goal_id} (Ctrl-C to stop)…[/]", markup=True)
            code = _ended(goal_id, new, start)
            if code is None and not new:
                code = _settled(goal_id)
            if code is not None:
                printer.rest()
                sys.exit(code)
            time.sleep(POLL_SECONDS)
