"""``goal delete`` and ``goal prune``: remove goals nobody runs any more (rules in convergence/edit.py).

Both ask before deleting on a terminal, and want ``--yes`` elsewhere (a script
says so explicitly); ``--dry-run`` lists what would go.
"""

from __future__ import annotations

import sys

import click

from ..convergence.edit import delete_goal, prune_candidates, tombstone_of
from ..errors import GoalkeeperError, NotFoundError
from ._common import EXIT_USAGE, echo_json, err_console, fail, handle_errors, out_console, resolve
from ._common import esc as _esc
from .goal import command as goal_group

__all__ = ["delete_cmd", "prune_cmd"]

_STATES = ("converged", "failed", "escalated", "paused", "active")


def _confirm(question: str, yes: bool) -> None:
    if yes:
        return
    if not sys.stdin.isatty():
        fail(f"{question} — pass --yes to confirm without a prompt (or --dry-run to see what would go)", EXIT_USAGE)
    if not click.confirm(question, default=False):
        raise SystemExit(1)


def _resolve_or_tombstone(text: str) -> str:
    """The goal id typed; a deleted goal's full id still resolves (its tombstone answers for it)."""
    try:
        return resolve("goal", text)
    except NotFoundError:
        if text.startswith("goal-") and tombstone_of(text) is not None:
            return text
        raise


@goal_group.command("delete")
@click.argument("goal_id")
@click.option("--yes", "-y", is_flag=True, help="Do not ask.")
@click.option("--force", is_flag=True,
              help="Also when the goal keeps trees saved before a rollback, or its file is damaged.")
@click.option("--dry-run", is_flag=True, help="List what would be removed.")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def delete_cmd(goal_id: str, yes: bool, force: bool, dry_run: bool, as_json: bool) -> None:
    """Remove a goal that is not running: its state, event log, logs and checkpoints (a signed tombstone
    stays in goals/tombstones.jsonl). The workspace and the triage items it filed are not touched."""
    goal_id = _resolve_or_tombstone(goal_id)
    plan = delete_goal(goal_id, force=force, dry_run=True)
    if dry_run:
        if as_json:
            echo_json({"goalId": goal_id, "state": plan.state, "removed": list(plan.removed), "dryRun": True})
            return
        for path in plan.removed:
            out_console.print(f"remove  {path}", markup=False)
        out_console.print(f"{goal_id} ({plan.state}): would remove {len(plan.removed)} path(s)", markup=False)
        return
    _confirm(f"delete goal {goal_id} ({plan.state}, {plan.tombstone.get('iterations')} iteration(s))?", yes)
    done = delete_goal(goal_id, force=force)
    if as_json:
        echo_json({"goalId": goal_id, "state": done.state, "removed": list(done.removed), "dryRun": False})
    else:
        out_console.print(f"{goal_id}: deleted ({done.state}; {len(done.removed)} path(s) removed, "
                          "tombstone kept)", markup=False)


@goal_group.command("prune")
@click.option("--older-than", "older_than", required=True, metavar="AGE",
              help="Only goals whose last change is older than this: 30d, 12h, 90m.")
@click.option("--state", "states", multiple=True, type=click.Choice(_STATES),
              help="Only goals in this state (repeatable; default: converged and failed).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask.")
@click.option("--force", is_flag=True, help="Also goals that keep trees saved before a rollback.")
@click.option("--dry-run", is_flag=True, help="List the goals it would delete.")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def prune_cmd(older_than: str, states: tuple[str, ...], yes: bool, force: bool, dry_run: bool,
              as_json: bool) -> None:
    """Delete old goals in bulk, as `goal delete` would; running goals are always skipped."""
    goals = prune_candidates(older_than, states or ("converged", "failed"))
    rows = [{"goalId": g.goal_id, "state": g.state, "updatedAt": g.updated_at, "objective": g.objective}
            for g in goals]
    if dry_run or not goals:
        if as_json:
            echo_json({"deleted": [], "skipped": [], "wouldDelete": rows, "dryRun": dry_run})
            return
        for r in rows:
            out_console.print(f"{r['goalId']}  {r['state']:<9} {r['updatedAt']}  {_esc(r['objective'])}")
        out_console.print(f"{len(rows)} goal(s) would be deleted" if dry_run else "nothing to prune", markup=False)
        return
    _confirm(f"delete {len(goals)} goal(s) last changed more than {older_than} ago?", yes)
    deleted, skipped = [], []
    for g in goals:
        try:
            delete_goal(g.goal_id, force=force)
            deleted.append(g.goal_id)
        except GoalkeeperError as e:
            skipped.append({"goalId": g.goal_id, "why": str(e)})
            if not as_json:
                err_console.print(f"skipped {g.goal_id}: {_esc(e)}", markup=True)
    if as_json:
        echo_json({"deleted": deleted, "skipped": skipped, "wouldDelete": [], "dryRun": False})
    else:
        out_console.print(f"deleted {len(deleted)} goal(s)" + (f", skipped {len(skipped)}" if skipped else ""),
                          markup=False)
