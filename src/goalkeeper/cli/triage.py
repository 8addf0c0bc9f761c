"""``goalkeeper triage``: the inbox of escalations from runs, goals and heartbeats."""

from __future__ import annotations

import shlex

import click

from ..convergence import promote_item
from ..store.triage import (
    SOURCES,
    TriageItem,
    dismiss_matching,
    get_item,
    list_items,
    markdown_of,
    set_status,
)
from ._common import (
    EXIT_USAGE,
    clean,
    echo_json,
    err_console,
    fail,
    handle_errors,
    out_console,
    resolve,
)
from ._common import esc as _esc

__all__ = ["command"]

_STATUSES = ("pending", "acted", "dismissed", "deferred", "resolved")
_SEV = {"info": "blue", "warning": "yellow", "critical": "red"}


@click.group("triage")
def command() -> None:
    """The triage inbox: escalations wait here for a human decision."""


@command.command("list")
@click.option("--status", type=click.Choice(_STATUSES), help="Only items with this status.")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def list_cmd(status: str | None, as_json: bool) -> None:
    """Items, oldest first."""
    broken: list[tuple[str, str]] = []
    items = list_items(status=status, broken=broken)
    for name, why in broken:
        err_console.print(f"[red]{name}: damaged, skipped[/]: {_esc(why)}")
    if as_json:
        echo_json([i.public() for i in items])
        return
    if not items:
        out_console.print("triage inbox is empty" + (f" (status {status})" if status else ""))
    for i in items:
        sev = _SEV.get(i.severity, "white")
        out_console.print(f"{i.id}  [{sev}]{i.severity:<8}[/] {i.status:<9} {i.source}:{_esc(i.source_id)}  "
                          f"{_esc(i.reason)}: {_esc(i.summary)}")


def _print_item(item: TriageItem) -> None:
    p = out_console.print
    p(f"[bold]{item.id}[/] {item.status} ({item.severity}) from {item.source} {_esc(item.source_id)}")
    p(f"  reason: {_esc(item.reason)}\n  summary: {_esc(item.summary)}")
    for a in item.suggested_actions:
        p(f"  - {_esc(a)}")
    if item.promoted_goal:
        p(f"  promoted to goal {_esc(item.promoted_goal)}")
    if item.resolved_by:
        p(f"  resolved by {_esc(item.resolved_by.get('kind'))} {_esc(item.resolved_by.get('id'))} "
          f"at {_esc(item.resolved_by.get('at'))}")
    if item.note:
        p(f"  note: {_esc(item.note)}")


@command.command("show")
@click.argument("item_id")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def show_cmd(item_id: str, as_json: bool) -> None:
    """One item; prints its Markdown report when it has one."""
    item_id = resolve("triage", item_id)
    item = get_item(item_id)
    if as_json:
        echo_json({**item.public(), "markdown": markdown_of(item_id)})
        return
    _print_item(item)
    md = markdown_of(item_id)
    if md:
        click.echo("")
        click.echo(clean(md))


@command.command("act")
@click.argument("item_id")
@click.option("--goal", "as_goal", is_flag=True, help="Promote the item to a new goal.")
@click.option("--until", multiple=True, metavar="CMD", help="Stopping condition for the new goal.")
@click.option("--type", "types", multiple=True, help="Type of the matching --until.")
@click.option("--maker", metavar="ARGV", help="Maker command for the new goal.")
@click.option("--max-iterations", type=click.IntRange(min=1), help="Iteration budget of the new goal (at least 1).")
@click.option("--workspace", type=click.Path(file_okay=False, exists=True))
@click.option("--note", help="Why / what you did.")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def act_cmd(item_id: str, as_goal: bool, until: tuple[str, ...], types: tuple[str, ...],
            maker: str | None, max_iterations: int | None, workspace: str | None,
            note: str | None, as_json: bool) -> None:
    """Mark an item acted on; with --goal, turn it into a new goal (objective = its summary)."""
    item_id = resolve("triage", item_id)
    if as_goal:
        try:
            maker_argv = shlex.split(maker) if maker else None
        except ValueError as e:
            raise click.BadParameter(f"cannot split {maker!r} into arguments ({e}); fix the quoting",
                                     param_hint="--maker") from None
        goal = promote_item(item_id, until=list(until), types=list(types), maker_argv=maker_argv,
                            max_iterations=max_iterations, workspace=workspace)
        item = set_status(item_id, "acted", note=note, promoted_goal=goal.goal_id)
        if as_json:
            echo_json({"item": item.public(), "goalId": goal.goal_id})
        else:
            click.echo(f"{item_id}: promoted to goal {goal.goal_id}; run it with `goalkeeper goal run {goal.goal_id}`")
        return
    if until:
        raise click.UsageError("--until only makes sense with --goal")
    _set(item_id, "acted", note, as_json)


def _set(item_id: str, status: str, note: str | None, as_json: bool) -> None:
    item_id = resolve("triage", item_id)
    item = set_status(item_id, status, note=note)  # type: ignore[arg-type]
    if as_json:
        echo_json(item.public())
    else:
        click.echo(f"{item_id}: {status}")


def _source(text: str | None) -> tuple[str | None, str | None]:
    """``--source KIND[:ID]`` -> (kind, id)."""
    if text is None:
        return None, None
    kind, _, sid = text.partition(":")
    if kind not in SOURCES:
        raise click.BadParameter(f"{text!r}: write KIND or KIND:ID with KIND one of {', '.join(SOURCES)} "
                                 "(as `triage list` shows them, e.g. goal:goal-k3j4h5g6)", param_hint="--source")
    return kind, sid or None


@command.command("dismiss")
@click.argument("item_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Every open (pending or deferred) item.")
@click.option("--source", "source", metavar="KIND[:ID]",
              help="Open items from this source: run, goal or heartbeat, optionally with its id (goal:goal-k3j4).")
@click.option("--reason", help="Open items with this reason (tampering, no_progress, scan_failed, ...).")
@click.option("--dry-run", is_flag=True, help="List the items it would dismiss.")
@click.option("--note")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def dismiss_cmd(item_id: str | None, all_: bool, source: str | None, reason: str | None, dry_run: bool,
                note: str | None, as_json: bool) -> None:
    """Close an item without acting on it, or every open item that --all, --source and --reason pick."""
    bulk = all_ or source is not None or reason is not None
    one = item_id is not None  # an empty ITEM_ID is still an id, refused as one
    if one and bulk:
        fail("give an ITEM_ID or the filters (--all, --source, --reason), not both", EXIT_USAGE)
    if not one and not bulk:
        fail("give an ITEM_ID, or pick items with --all, --source KIND[:ID] or --reason REASON", EXIT_USAGE)
    if item_id is not None:
        if dry_run:
            fail("--dry-run goes with the filters; for one item, `triage show` it", EXIT_USAGE)
        _set(item_id, "dismissed", note, as_json)
        return
    kind, sid = _source(source)
    items = dismiss_matching(source=kind, source_id=sid, reason=reason, note=note, dry_run=dry_run)
    if as_json:
        echo_json({"dismissed": [] if dry_run else [i.id for i in items],
                   "wouldDismiss": [i.id for i in items] if dry_run else [], "dryRun": dry_run})
        return
    for i in items:
        out_console.print(f"{i.id}  {i.source}:{_esc(i.source_id)}  {_esc(i.reason)}: {_esc(i.summary)}")
    verb = "would dismiss" if dry_run else "dismissed"
    out_console.print(f"{verb} {len(items)} item(s)", markup=False)


@command.command("defer")
@click.argument("item_id")
@click.option("--note")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def defer_cmd(item_id: str, note: str | None, as_json: bool) -> None:
    """Put an item aside for later."""
    _set(item_id, "deferred", note, as_json)
