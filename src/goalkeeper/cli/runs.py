"""``goalkeeper runs list|show``."""

from __future__ import annotations

import click
from rich.table import Table

from ..errors import CorruptStateError
from ..model.conditions import format_value
from ..runtime.state import RunStore, list_runs, reconcile
from ._common import echo_json, handle_errors, out_console, resolve
from ._common import esc as e


@click.group("runs")
def command() -> None:
    """List and show GOAP runs."""


@command.command("list")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def list_cmd(as_json: bool) -> None:
    """Every run, newest first (damaged ones as corrupt; ones stopped before their first state as
    never started)."""
    runs = list_runs()
    if as_json:
        echo_json([
            r.state.model_dump(mode="json", include={"run_id", "spec_name", "status", "tick", "created", "updated"})
            if r.state is not None else {"run_id": r.run_id, "status": r.status, "error": r.error}
            for r in runs
        ])
        return
    table = Table("run", "spec", "status", "ticks", "updated")
    for r in runs:
        if r.state is not None:
            st = r.state
            table.add_row(e(st.run_id), e(st.spec_name), st.status, str(st.tick), e(st.updated))
        else:
            color = "red" if r.status == "corrupt" else "yellow"
            table.add_row(e(r.run_id), "?", f"[{color}]{r.status}[/]", "", e(r.error or ""))
    out_console.print(table if runs else "no runs yet")


@command.command("show")
@click.argument("run_id")
@click.option("--json", "as_json", is_flag=True)
@click.option("--events", is_flag=True, help="Include the event log.")
@handle_errors
def show_cmd(run_id: str, as_json: bool, events: bool) -> None:
    """One run: status, facts, history, replans, escalation."""
    store = RunStore(resolve("run", run_id))
    st = store.load()
    try:
        log = store.events()
        st, _ = reconcile(st, log)  # as the log says: a crash may have left the state behind
    except CorruptStateError:
        if events:
            raise
    if as_json:
        data = st.model_dump(mode="json")
        if events:
            data["events"] = log
        echo_json(data)
        return
    out_console.print(f"[bold]{e(st.run_id)}[/] · {e(st.spec_name)} · [bold]{st.status}[/] · tick {st.tick}"
                      + (f"/{st.max_ticks}" if st.max_ticks else ""))
    facts = Table("fact", "value", "source", title="facts", title_justify="left")
    for f, v in st.facts.items():
        facts.add_row(e(f), e(format_value(v)),
                      e(st.sources.get(f, "") + (f" ({st.errors[f]})" if f in st.errors else "")))
    out_console.print(facts)
    hist = Table("tick", "action", "outcome", "reason", title="history", title_justify="left")
    for t in st.history:
        hist.add_row(str(t.tick), e(t.action), t.outcome, e(t.reason[:100]))
    out_console.print(hist)
    for r in st.replans:
        fixes = ", ".join(f"{c.get('fact')}: {format_value(c.get('believed'))}→{format_value(c.get('observed'))}"
                          for c in r.corrections)
        out_console.print(f"replan at tick {r.tick} after {e(', '.join(r.failed))}: {e(fixes or 'no correction')}")
    if st.escalation:
        out_console.print(f"[red]escalated[/] ({e(st.escalation.get('reason'))}): {e(st.escalation.get('message'))}")
        out_console.print(f"triage {e(st.escalation.get('triage_id'))} · report {e(st.escalation.get('report'))}")
