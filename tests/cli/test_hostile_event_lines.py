"""One line per goal event, whatever a damaged or forged event log holds in its fields.

``goal logs`` and the live line of ``goal run`` show every event of the log; a
field of the wrong type (``costDollars: "/etc/passwd"``, ``reasons: 5``) or text
that looks like rich markup (``iteration: "[/]"``) is shown as text, never an
``internal error``; an event's time (``ts``) is terminal-safe text. Exhaustive and pure (every event kind x every field x every
hostile value), so it costs well under a second.
"""

from __future__ import annotations

import pytest
from rich.markup import render

from goalkeeper.cli._common import esc
from goalkeeper.cli._live import event_lines, time_of
from goalkeeper.cli.goal_logs import _ended

KINDS = [
    "iteration.started", "maker.finished", "maker.unrunnable", "iteration.rejected", "iteration.voided",
    "conditions.finished", "oracle.finished", "goal.converged", "goal.escalated", "goal.triaged", "goal.paused",
    "goal.abandoned", "goal.repaired", "check.finished", "goal.created", "goal.baselined", "goal.edited",
    "run.started", "goal.resumed", "goal.rolledback", "iteration.crash_charged", "something.new",
]
FIELDS = [
    "event", "goalId", "iteration", "hint", "resumed", "treeChanged", "exitCode", "summary", "costDollars", "error",
    "reasons", "reason", "paths", "results", "verdict", "confidence", "spentDollars", "detail", "triageId",
    "replacedBy", "problems", "state", "objective", "failing", "checksBox", "protectedFiles", "sandbox", "changes",
    "reopened", "to", "seconds",
]
VALUES: list[object] = [
    None, True, 0, -1, 10**400, 1e308, float("nan"), float("inf"), "", "/etc/passwd", "[/]", "[bold red]x", "\x1b[2J",
    "\ud800", "\x00", [], [None, 1, "[/]"], "abc", {"a": [1]}, [{"command": "[/]", "passed": "x", "summary": 5}],
    [{"key": "[/]"}], 5,
]
BASE = {"ts": "2026-01-01T00:00:00.000Z", "goalId": "goal-abcd1234", "iteration": 1}


def _render(lines: list[str]) -> None:
    for line in lines:
        assert isinstance(line, str)
        render(line)  # what the console does with markup; a markup error raises here


@pytest.mark.parametrize("kind", KINDS)
def test_every_field_of_every_event_takes_any_value(kind: str) -> None:
    for field in FIELDS:
        for value in VALUES:
            ev = {**BASE, "event": kind, field: value}
            _render(event_lines(ev, verbose=True))  # verbose shows every line the short form does


def test_a_forged_cost_is_shown_as_text_not_an_error() -> None:
    ev = {**BASE, "event": "maker.finished", "summary": "ok", "costDollars": "/etc/passwd"}
    assert event_lines(ev) == ["  maker: ok ([yellow]no change[/], $/etc/passwd)"]
    assert "$0.00" in event_lines({**BASE, "event": "maker.finished"})[0]
    assert "$1.50" in event_lines({**BASE, "event": "maker.finished", "costDollars": 1.5})[0]


@pytest.mark.parametrize("ts", VALUES + ["2026-01-01T[/]\x1b[2J:00.000Z", "\ud800" * 30, "[/]" * 10])
def test_an_event_time_is_plain_terminal_safe_text(ts: object) -> None:
    shown = time_of({"ts": ts})
    assert isinstance(shown, str) and "\x1b" not in shown and not any("\ud800" <= c <= "\udfff" for c in shown)
    render(f"[dim]{esc(shown)}[/] ")  # as goal logs prints it


def test_following_a_damaged_log_ends_on_no_odd_record() -> None:
    odd: list[dict[str, object]] = [
        {"seq": "9", "event": "run.finished", "state": "converged"},
        {"seq": 9, "event": "run.finished", "state": ["converged"]},
        {"seq": [9], "event": "check.finished", "state": {"a": 1}},
        {"seq": 10**400, "event": "run.finished", "state": None},
    ]
    assert _ended("goal-abcd1234", odd, 0) is None
    assert _ended("goal-abcd1234", [{"seq": 3, "event": "run.finished", "state": "escalated"}], 0) == 3
