"""``goal edit ID ...``: change a goal's guards, maker, budget or checks (rules in convergence/edit.py)."""

from __future__ import annotations

from typing import Any

import click

from ..convergence import conditions_from_commands, load_goal
from ..convergence.edit import GoalEdit, copy_as_new, edit_goal
from ..convergence.goal import CONDITION_TYPES
from ._common import echo_json, handle_errors, out_console, percent, resolve
from ._common import esc as _esc
from ._help import PROTECTED_HELP
from .goal import _kv, _limit, _maker_options, _options, _split_maker
from .goal import command as goal_group

__all__ = ["edit_cmd"]

_RULES = (
    "\b\nIn place (a signed goal.edited event): guards, maker, oracle options, check env and budget, on an\n"
    "active or paused goal, or one that escalated budget_exhausted (a budget edit reopens it as paused:\n"
    "continue with `goal resume`). Stopping conditions change in place only before the goal's baseline\n"
    "is taken, the objective never; otherwise, and for converged, abandoned or otherwise escalated\n"
    "goals, --as-new makes a new goal with the same settings and your changes (the old one is closed\n"
    "as replaced). A running goal is never edited: pause it first."
)


def _short(v: Any) -> str:
    if isinstance(v, list) and v and all(isinstance(c, dict) and "command" in c for c in v):
        v = [c["command"] for c in v]  # stopping conditions: their commands say enough
    s = str(v) if not isinstance(v, list | dict) else repr(v)
    return s if len(s) <= 120 else s[:117] + "..."


@goal_group.command("edit", epilog=_RULES + "\n\n" + PROTECTED_HELP)
@click.argument("goal_id")
@click.option("--protect", multiple=True, metavar="GLOB", help="Seal more paths (repeatable).")
@click.option("--unprotect", multiple=True, metavar="GLOB", help="Drop one of the goal's --protect globs.")
@click.option("--allow-edit", "allow_edit", multiple=True, metavar="GLOB",
              help="A protected path the maker may change from now on (repeatable).")
@click.option("--disallow-edit", "disallow_edit", multiple=True, metavar="GLOB",
              help="Drop one of the goal's --allow-edit globs.")
@click.option("--check-output", "check_outputs", multiple=True, metavar="GLOB",
              help="Files the checks themselves create (repeatable).")
@click.option("--until", multiple=True, metavar="CMD", help="Add a stopping condition (before the baseline).")
@click.option("--type", "types", multiple=True, type=click.Choice(CONDITION_TYPES),
              help="Type of the matching --until (in order); inferred when left out.")
@click.option("--threshold", type=float, callback=percent, help="Percent for a coverage_threshold --until.")
@click.option("--drop-until", "drop_until", multiple=True, metavar="CMD|N",
              help="Remove a stopping condition by its command or its number (before the baseline).")
@click.option("--objective", default=None, help="A new objective (with --as-new).")
@click.option("--maker", "maker", metavar="ARGV", help="A new maker command.")
@click.option("--maker-model", default=None, help="The maker's model ('' to clear).")
@click.option("--maker-timeout", default=None, help="Per-iteration maker timeout.")
@click.option("--maker-option", "maker_options", multiple=True, metavar="KEY=VALUE",
              help="Set a coding-agent maker option (repeatable).")
@click.option("--drop-maker-option", "drop_maker_options", multiple=True, metavar="KEY",
              help="Remove a maker option.")
@click.option("--oracle-option", "oracle_options", multiple=True, metavar="KEY=VALUE",
              help="Set an oracle provider option (repeatable).")
@click.option("--check-env", "check_env", multiple=True, metavar="KEY=VALUE", help="Set a variable for the checks.")
@click.option("--drop-check-env", "drop_check_env", multiple=True, metavar="KEY", help="Remove a check variable.")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "none"]), default=None)
@click.option("--max-iterations", default=None, help="Number, or 'none'.")
@click.option("--max-duration", default=None, help="'2h', '30m', '90s' or 'none'.")
@click.option("--max-dollars", default=None, help="Number, or 'none'.")
@click.option("--as-new", "as_new", is_flag=True, help="Make a new goal with these changes instead.")
@click.option("--force", is_flag=True,
              help="Apply guards even though the workspace already changed files they would protect.")
@click.option("--dry-run", is_flag=True, help="Show what would change, change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print {goalId, changes, ...} as JSON.")
@handle_errors
def edit_cmd(goal_id: str, protect: tuple[str, ...], unprotect: tuple[str, ...], allow_edit: tuple[str, ...],
             disallow_edit: tuple[str, ...], check_outputs: tuple[str, ...], until: tuple[str, ...],
             types: tuple[str, ...], threshold: float | None, drop_until: tuple[str, ...], objective: str | None,
             maker: str | None, maker_model: str | None, maker_timeout: str | None,
             maker_options: tuple[str, ...], drop_maker_options: tuple[str, ...], oracle_options: tuple[str, ...],
             check_env: tuple[str, ...], drop_check_env: tuple[str, ...], sandbox: str | None,
             max_iterations: str | None, max_duration: str | None, max_dollars: str | None, as_new: bool,
             force: bool, dry_run: bool, as_json: bool) -> None:
    """Change a goal that is not running; every change is one signed event (see below for what may change when)."""
    goal_id = resolve("goal", goal_id)
    current = load_goal(goal_id)  # option values are typed for its maker and oracle (edit_goal re-reads it locked)
    budget: dict[str, Any] = {}
    if max_iterations is not None:
        budget["max_iterations"] = _limit(max_iterations, int, "--max-iterations")
    if max_dollars is not None:
        budget["max_dollars"] = _limit(max_dollars, float, "--max-dollars")
    if max_duration is not None:
        budget["max_duration"] = None if max_duration.lower() in ("none", "unlimited") else max_duration
    e = GoalEdit(
        objective=objective, protect=list(protect), unprotect=list(unprotect), allow_edit=list(allow_edit),
        disallow_edit=list(disallow_edit), check_outputs=list(check_outputs),
        until=conditions_from_commands(list(until), list(types), threshold) if until else [],
        drop_until=list(drop_until), maker_argv=_split_maker(maker) if maker is not None else None,
        maker_model=maker_model, maker_timeout=maker_timeout, sandbox=sandbox,
        maker_options=_maker_options(current.maker.type, maker_options),
        drop_maker_options=list(drop_maker_options),
        oracle_options=_options(current.oracle.model, oracle_options) if oracle_options else {},
        check_env=dict(_kv(x, "--check-env") for x in check_env), drop_check_env=list(drop_check_env),
        budget=budget,
    )
    r = copy_as_new(goal_id, e, dry_run=dry_run) if as_new else edit_goal(goal_id, e, force=force, dry_run=dry_run)
    if as_json:
        echo_json({"goalId": r.goal.goal_id, "replaced": r.replaced, "state": r.goal.state, "changes": r.changes,
                   "reopened": r.reopened, "forced": list(r.newly_protected), "dryRun": dry_run})
        return
    p = out_console.print
    verb = "would change" if dry_run else "changed"
    for c in r.changes:
        p(f"  {_esc(c['key'])}: {_esc(_short(c['before']))} -> {_esc(_short(c['after']))}", markup=True)
    if as_new:
        if dry_run:
            p(f"{goal_id}: --as-new would make a new goal with {len(r.changes)} change(s)", markup=False)
        else:
            p(f"{r.goal.goal_id}: new goal replacing {goal_id} ({len(r.changes)} change(s)); run it with "
              f"`goalkeeper goal run {r.goal.goal_id}`", markup=False)
        return
    p(f"{goal_id}: {verb} {len(r.changes)} setting(s)" + (" (dry run)" if dry_run else ""), markup=False)
    if r.newly_protected:
        p(f"  forced: {', '.join(r.newly_protected[:8])} already differ from the baseline and are now protected; "
          "the next iteration will be rejected unless they are restored", markup=False)
    if r.reopened:
        p(f"  the goal is paused now; continue with `goalkeeper goal resume {goal_id}`", markup=False)
