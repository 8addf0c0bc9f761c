"""``goal run ID... --parallel N`` / ``--all-active``: the display of a wave (the deciding is in
:mod:`goalkeeper.convergence.waves`). Kept out of ``goal.py`` so that command group stays small."""

from __future__ import annotations

import time
from typing import Any

import click

from ..convergence import list_goals, load_goal, waves
from ._common import EXIT_OK, clean, echo_json, err_console, out_console, resolve
from ._common import esc as _esc

__all__ = ["run_wave_cmd"]

_STYLE = {"converged": "green", "paused": "yellow", "active": "cyan"}


def run_wave_cmd(goal_ids: tuple[str, ...], all_active: bool, parallel: int | None, as_json: bool) -> int:
    """Run the goals named (or every active one) as one wave; the wave's exit code."""
    from rich.live import Live
    from rich.table import Table

    if all_active:
        goals, notes = waves.select_active(list_goals())
        for note in notes:
            err_console.print(_esc(note))
        if not goals:
            if as_json:
                echo_json({"event": "wave.finished", "exitCode": EXIT_OK, "outcomes": []})
            else:
                click.echo("no active goals to run")
            return EXIT_OK
    else:
        goals = [load_goal(resolve("goal", g)) for g in goal_ids]
    waves.check_wave(goals)
    from ..convergence.preflight import refuse_unrunnable_goal

    for g in goals:  # a goal that could never run now is refused before any of the wave starts
        for w in refuse_unrunnable_goal(g, f"goal run refused ({g.goal_id})").warnings:
            err_console.print("warning: " + _esc(w.text()))
    n = parallel or min(len(goals), waves.DEFAULT_PARALLEL)
    view = waves.WaveView()
    for g in goals:
        view.add(g.goal_id, g.budget.max_iterations)

    def table() -> Table:
        t = Table("goal", "state", "iteration", "elapsed", "last", title=f"{len(goals)} goal(s), {n} at a time",
                  title_justify="left")
        for row in view.table(time.monotonic()):
            t.add_row(*(_esc(c) for c in row))
        return t

    live: Live | None = None

    def sink(ev: dict[str, Any]) -> None:
        view.feed(ev, time.monotonic())
        if as_json:
            echo_json(ev)
        elif live is not None:
            live.update(table())
        else:
            text = waves.describe_event(ev)
            if text:
                click.echo(f"{ev.get('goalId')}: {clean(text)}")

    ids = [g.goal_id for g in goals]
    if as_json or not out_console.is_terminal:
        outcomes = waves.run_wave(ids, parallel=n, on_event=sink)
    else:
        with Live(table(), console=out_console, refresh_per_second=4) as live:
            outcomes = waves.run_wave(ids, parallel=n, on_event=sink)
    code = waves.worst_exit(outcomes)
    if as_json:
        echo_json({"event": "wave.finished", "exitCode": code, "outcomes": [o.to_dict() for o in outcomes]})
        return code
    for o in outcomes:
        style = _STYLE.get(o.outcome, "red")
        out_console.print(f"{o.goal_id}  [{style}]{o.outcome:<9}[/] {o.iterations:>3} it  "
                          f"${o.spent_dollars:>6.2f}  {_esc(o.detail or '')}", soft_wrap=True)
    out_console.print(f"wave: exit {code} (worst outcome; 0 only when every goal converged)")
    return code
