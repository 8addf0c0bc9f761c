"""``goal status``, ``goal show`` and ``goal list``: read a goal without its lock (a running loop
may hold it), so they work from a second terminal while another process runs the goal."""

from __future__ import annotations

from typing import Any

import click

from ..convergence import Goal
from ..convergence.logs import read_logs
from ..engines.cli_options import EngineChoice, engine_options
from ._common import echo_json, err_console, handle_errors, out_console
from ._common import esc as _esc
from ._live import GoalStatus, goal_lock_holder, goal_status, human_duration
from .goal import command as goal_group

__all__ = ["list_cmd", "show_cmd", "status_cmd"]

_STATE_STYLE = {"active": "cyan", "paused": "yellow", "converged": "green", "escalated": "red", "failed": "red"}
TAIL_LINES = 15


def status_of(goal: Goal, engine: EngineChoice | None = None) -> GoalStatus:
    """The goal's status; who runs it is known only for the local engine."""
    local = engine is None or engine.name == "local"  # the lock holder is a pid on this machine
    return goal_status(goal, pid=goal_lock_holder(goal.goal_id) if local else None, known=local)


def print_status(s: GoalStatus) -> None:
    p = out_console.print
    style = _STATE_STYLE.get(s["state"], "white")
    p(f"{s['goalId']} [{style}]{s['state']}[/]: {_esc(s['objective'])}", markup=True)
    n = s["maxIterations"] or "∞"
    if s["running"]:
        took = f" for {human_duration(s['phaseSeconds'])}" if s["phaseSeconds"] is not None else ""
        p(f"  running (pid {s['pid']}): iteration {s['iteration']}/{n}, {s['activity']}{took}", markup=False)
    elif s["activity"] == "interrupted":
        p(f"  not running: iteration {s['iteration']}/{n} was interrupted in its {s['resumesAt']} phase; "
          f"`goalkeeper goal run {s['goalId']}` resumes it there", markup=False)
    else:
        p(f"  iteration {s['iteration']}/{n}", markup=False)
    left = "no dollar limit" if s["leftDollars"] is None else f"${s['leftDollars']:.2f} left of ${s['maxDollars']:.2f}"
    unknown = "" if s["costKnown"] else " (some prices unknown)"
    p(f"  {human_duration(s['elapsedSeconds'])} of {human_duration(s['maxDurationSeconds'])} active, "
      f"${s['spentDollars']:.2f} spent, {left}{unknown}", markup=False)
    for c in s["lastConditions"]:
        p(f"  {'✔' if c['passed'] else '✘'} {_esc(c['command'])}: {_esc(c['summary'])}", markup=True)
    if s["lastHint"] and s["state"] in ("active", "paused"):
        p(f"  next hint: {_esc(s['lastHint'])}", markup=True)
    e = s["escalation"]
    if e and s["state"] in ("escalated", "failed"):
        tri = f"; triage item {e['triageId']}" if e.get("triageId") else ""
        p(f"  {'escalated' if s['state'] == 'escalated' else 'ended'}: {_esc(e['reason'])}: "
          f"{_esc(e['detail'])}{tri}", markup=True)


@goal_group.command("status")
@click.argument("goal_id")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (see docs/json.md).")
@engine_options
@handle_errors
def status_cmd(goal_id: str, as_json: bool, engine: EngineChoice) -> None:
    """One goal now: state, who runs it and its phase, iteration k/N, active time, dollars spent and
    left, last results and hint. Works while another process runs the goal."""
    eng = engine.engine()
    s = status_of(eng.fetch_goal(eng.resolve_goal_id(goal_id)), engine)
    if as_json:
        echo_json(s)
    else:
        print_status(s)


def _tail(text: str, n: int = TAIL_LINES) -> list[str]:
    lines = [ln for ln in text.rstrip().splitlines()]
    return lines[-n:]


def _finding(f: dict[str, Any]) -> str:
    path, line, detail = f.get("path") or "", f.get("line"), str(f.get("detail") or "")
    if path and line:
        return f"{path}:{line}: {detail}"
    if path and path not in detail:
        return f"{path}: {detail}"
    return detail


def _check_log(goal: Goal, iteration: int, index: int) -> str | None:
    for rec in read_logs(goal.goal_id, iteration):
        if rec["phase"] == "checks" and rec["index"] == index:
            return str(rec["text"])
    return None


@goal_group.command("show")
@click.argument("goal_id")
@click.option("--json", "as_json", is_flag=True, help="The whole goal file, migrated.")
@click.option("-v", "--verbose", is_flag=True,
              help="Also each iteration's rejection findings (file:line) and failing checks' output tails.")
@engine_options
@handle_errors
def show_cmd(goal_id: str, as_json: bool, verbose: bool, engine: EngineChoice) -> None:
    """Everything about a goal, including every iteration."""
    eng = engine.engine()
    goal = eng.fetch_goal(eng.resolve_goal_id(goal_id))
    if as_json:
        echo_json(goal.dump())
        return
    print_status(status_of(goal, engine))
    p = out_console.print
    for sc in goal.stopping_conditions:
        p(f"  until {_esc(sc.label())}", markup=True)
    for h in goal.history:
        verdict = "rejected" if h.rejected else (h.oracle_verdict or f"in {h.phase}").replace("_", " ")
        unknown = "" if h.cost_known else " (some prices unknown)"
        p(f"  #{h.iteration} {_esc(verdict)}; maker: {_esc(h.maker_summary or '-')}; "
          f"${h.cost_dollars:.4f} = maker ${h.maker_cost_dollars:.4f} + oracle "
          f"${h.oracle_cost_dollars:.4f}{unknown}", markup=True)
        if h.rejected and not verbose:
            p(f"      {_esc(h.rejected)}", markup=True)
        for r in h.reasons if not h.rejected else []:
            p(f"      {_esc(r)}", markup=True)
        if not verbose:
            continue
        for f in h.findings:
            p(f"      {_esc(_finding(f))}", markup=True)
        for i, c in enumerate(h.condition_results, 1):
            if c.passed:
                continue
            p(f"      ✘ {_esc(c.command)}: {_esc(c.summary)}", markup=True)
            text = c.output_tail or _check_log(goal, h.iteration, i) or ""
            for line in _tail(text):
                p(f"        │ {_esc(line)}", markup=True)
    if verbose and goal.history:
        p(f"  full output of each phase: `goalkeeper goal logs {goal_id}`", markup=False)


@goal_group.command("list")
@click.option("--active", is_flag=True, help="Only active and paused goals.")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of `goal status --json` objects.")
@engine_options
@handle_errors
def list_cmd(active: bool, as_json: bool, engine: EngineChoice) -> None:
    """All goals, oldest first."""
    broken: list[tuple[str, str]] = []
    found = engine.engine().list_goals(broken)
    for name, why in broken:
        err_console.print(f"[red]{name}: damaged, skipped[/]: {_esc(why)}")
    goals = sorted(found, key=lambda g: g.created_at or "")
    if active:
        goals = [g for g in goals if g.state in ("active", "paused")]
    statuses = [status_of(g, engine) for g in goals]
    if as_json:
        echo_json(statuses)
        return
    if not goals:
        out_console.print("no goals; create one with `goalkeeper goal new OBJECTIVE --until 'CMD'`")
    for s in statuses:
        style = _STATE_STYLE.get(s["state"], "white")
        run = " [bold]running[/]" if s["running"] else ""
        out_console.print(f"{s['goalId']}  [{style}]{s['state']:<9}[/] {s['iterations']:>3} it  "
                          f"${s['spentDollars']:>6.2f}  {_esc(s['objective'])}{run}")

