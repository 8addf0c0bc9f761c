"""``goalkeeper plan SPEC [--state STATE.json | --observe]``.

Exit 0 a plan was found (or the goal already holds), 3 unreachable (no plan
exists: the output names the gap), 4 no plan yet (the search hit --max-seconds
before it could decide), 1 error, 2 usage.
"""

from __future__ import annotations

import dataclasses
import sys
import warnings

import click
from rich.markup import escape
from rich.table import Table

from ..model.conditions import format_value
from ..model.loader import load_spec
from ..model.state import complete_state, load_state
from ..planning import SearchLimits, plan
from ..planning.result import PlanResult
from ._common import (
    EXIT_ESCALATED,
    EXIT_NOT_DONE,
    EXIT_OK,
    EXIT_USAGE,
    clean,
    echo_json,
    err_console,
    fail,
    handle_errors,
    out_console,
)
from .observe import observe_every_fact, observed_json, observed_table

_EXIT = {"found": EXIT_OK, "unreachable": EXIT_ESCALATED, "limit": EXIT_NOT_DONE}


@click.command("plan")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@click.option("--state", "state_path", type=click.Path(dir_okay=False),
              help="JSON object of fact values (facts with `initial` may be left out).")
@click.option("--observe", "observe", is_flag=True,
              help="Plan from the world: observe every fact first, as `goalkeeper observe` does (a fact whose "
                   "observer fails is unknown, which satisfies no condition).")
@click.option("--search", default="astar", show_default=True,
              type=click.Choice(["astar", "regression", "greedy"]),
              help="astar (optimal, forward; the default), greedy (fast, not optimal), regression (optimal, backward "
                   "chaining: for small GOAP specs of tens of actions; it warns on large tasks).")
@click.option("--heuristic", default=None, help="Heuristic for the search (default: chosen per task).")
@click.option("--exclude", multiple=True, help="Action to leave out (repeatable).")
@click.option("--max-seconds", type=click.FloatRange(min=0), default=None, help="Give up after this many seconds.")
@click.option("--max-memory", "max_memory", type=click.FloatRange(min=1), default=None, metavar="MB",
              help="How much the search may grow the process (default 2048, or $GOALKEEPER_PLANNER_MAX_MB).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handle_errors
def command(
    spec_path: str, state_path: str | None, observe: bool, search: str, heuristic: str | None,
    exclude: tuple[str, ...], max_seconds: float | None, max_memory: float | None, as_json: bool,
) -> None:
    """Plan from a state (the spec's initial values, a --state file, or the world with --observe) to
    SPEC's goal. Exit 0 plan found, 3 unreachable, 4 no plan yet (time limit), 1 error, 2 usage."""
    if observe and state_path:
        fail("--observe plans from the world and --state from a file: give one of them", EXIT_USAGE)
    spec = load_spec(spec_path)
    observed = None
    if observe:
        observed = observe_every_fact(spec, spec_path)
        state = {f: o.value for f, o in observed.items()}  # None = unknown: satisfies no condition
    elif state_path:
        state = load_state(spec, state_path)
    else:
        state = complete_state(spec, {}, source="initial values")
    limits = SearchLimits(max_seconds=max_seconds)
    if max_memory is not None:
        limits = dataclasses.replace(limits, max_memory_mb=max_memory)
    with warnings.catch_warnings(record=True) as caught:  # said once, plainly, not as a Python warning
        warnings.simplefilter("always", RuntimeWarning)
        result = plan(spec, state, search=search, heuristic=heuristic, exclude=exclude, limits=limits)
    for w in caught:
        err_console.print("warning: " + clean(str(w.message)), markup=False)
    if as_json:
        out = result.to_dict()
        if observed is not None:
            out["observed"] = observed_json(observed)
        echo_json(out)
    else:
        if observed is not None:
            out_console.print(observed_table(observed))
        render(result, spec_path)
    sys.exit(_EXIT.get(result.status, EXIT_ESCALATED))


def render(result: PlanResult, title: str) -> None:
    stats = (f"{result.expanded} expanded, {result.generated} generated, "
             f"{result.seconds * 1000:.2f} ms, search {result.search}"
             + (f"/{result.heuristic}" if result.heuristic else ""))
    if result.found:
        table = Table(title=f"plan for {escape(title)}", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("action")
        for i, name in enumerate(result.plan, 1):
            table.add_row(str(i), escape(name))
        if not result.plan:
            out_console.print("the goal already holds: nothing to do")
        else:
            out_console.print(table)
        out_console.print(f"cost {format_value(result.cost)} · {stats}", markup=False)
        return
    if result.status == "limit":
        out_console.print(f"[yellow]no plan yet:[/] {escape(result.reason)} ({escape(stats)})")
        return
    out_console.print(f"[bold red]unreachable:[/] {escape(result.reason)}", markup=True)
    for u in result.unreachable:
        out_console.print(f"  goal {u.fact} {u.condition} (now {format_value(u.current)})", markup=False)
        if not u.setters:
            out_console.print("    no action sets it: add one, or observe it", markup=False)
        for s in u.setters:
            tag = " [excluded]" if s.excluded else ""
            if s.blocked:
                blocks = ", ".join(f"{b.fact} {b.condition}" for b in s.blocked)
                out_console.print(f"    {s.action}{tag} needs {blocks}, which can never hold", markup=False)
            else:
                out_console.print(f"    {s.action}{tag} could set it", markup=False)
    out_console.print(stats)
