"""``goalkeeper runs list|show|logs``: past and running GOAP runs, read without their lock."""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.errors import MarkupError
from rich.table import Table

from ..errors import CorruptStateError, GoalkeeperError
from ..model.conditions import format_value
from ..runtime.progress import rich_reporter
from ..runtime.state import RunState, RunStore, list_runs, reconcile
from ..store.safe import MAX_STATE_BYTES, read_bounded
from ._common import (
    EXIT_ERROR,
    EXIT_ESCALATED,
    EXIT_OK,
    camel,
    clean,
    echo_json,
    handle_errors,
    out_console,
    resolve,
    terminal_safe,
)
from ._common import esc as e
from ._live import POLL_SECONDS, Tail, lock_holder, quiet_interrupt, time_of

__all__ = ["command", "run_json"]

_EXIT = {"reached": EXIT_OK, "escalated": EXIT_ESCALATED, "error": EXIT_ERROR}


def run_json(st: RunState) -> dict[str, Any]:
    """A run as ``--json`` shows it: camelCase keys; facts, sources and errors keep the spec's names."""
    d = camel(st.model_dump(mode="json"))
    d["history"] = [camel(t) for t in d["history"]]
    d["replans"] = [camel(r) for r in d["replans"]]
    for key in ("escalation", "pending"):
        if isinstance(d.get(key), dict):
            d[key] = camel(d[key])
    return d


@click.group("runs")
def command() -> None:
    """List, show and follow GOAP runs."""


@command.command("list")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of {runId, specName, status, tick, ...}.")
@handle_errors
def list_cmd(as_json: bool) -> None:
    """Every run, newest first (damaged ones as corrupt; ones stopped before their first state as
    never started)."""
    runs = list_runs()
    if as_json:
        echo_json([
            camel(r.state.model_dump(mode="json", include={"run_id", "spec_name", "status", "tick", "created",
                                                            "updated"}))
            if r.state is not None else {"runId": r.run_id, "status": r.status, "error": r.error}
            for r in runs
        ])
        return
    table = Table()
    # an id is never cut or wrapped, whatever the terminal's width: the other columns give way
    table.add_column("run", no_wrap=True, min_width=max((len(r.run_id) for r in runs), default=3))
    for name in ("spec", "status", "ticks", "updated"):
        table.add_column(name, overflow="fold")
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
        st = _reconciled(store, st, log)  # as the log says: a crash may have left the state behind
    except CorruptStateError:
        if events:
            raise
    if as_json:
        data = run_json(st)
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
        esc = st.escalation
        out_console.print(f"[red]escalated[/] ({e(esc.get('reason'))}): {e(esc.get('message'))}")
        tri = f"triage item {e(esc['triage_id'])}" if esc.get("triage_id") else "no triage item yet"
        out_console.print(f"{tri} · report {e(esc.get('report') or '-')}")


def _reconciled(store: RunStore, st: RunState, log: list[dict[str, Any]]) -> RunState:
    """The run as its log says it is; a record of the wrong shape (a damaged log) is a CorruptStateError
    naming the log, not the KeyError or TypeError the replay raises on it."""
    try:
        return reconcile(st, log)[0]
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        raise CorruptStateError(
            f"{store.events_path}: a record cannot be replayed ({type(e).__name__}: {str(e)[:100]}); the log is "
            "damaged — `goalkeeper runs logs --json` shows its records; the state file alone was left as it is"
        ) from None


def check_replayable(run_id: str) -> None:
    """Before ``run --resume``: the run's log replays (a damaged record is named, not a KeyError)."""
    store = RunStore(run_id)
    try:
        st, log = store.load(), store.events()
    except (GoalkeeperError, OSError):
        return  # the driver says what is wrong (and clears a run that never started)
    _reconciled(store, st, log)


def _tick_log(store: RunStore, rec: dict[str, Any]) -> tuple[str, str] | None:
    """The output file of the action an event finished: named from its tick and action, read
    inside the run's logs folder only (never a path taken from the event)."""
    tick, action = rec.get("tick"), rec.get("action")
    if (not isinstance(tick, int) or not isinstance(action, str) or "/" in action or "\x00" in action
            or action in (".", "..")):
        return None
    path = store.logs / f"tick-{tick:04d}-{action}.log"
    try:
        raw = read_bounded(path, limit=MAX_STATE_BYTES, root=store.root)
    except (OSError, ValueError, GoalkeeperError):  # ValueError: a name no file can have (a lone surrogate)
        return None
    return str(path.name), raw.decode("utf-8", errors="replace")


def _settled(store: RunStore) -> int | None:
    if lock_holder(store.dir / "lock") is not None:
        return None
    try:
        st = _reconciled(store, store.load(), store.events())
    except (GoalkeeperError, OSError):
        return None
    return _EXIT.get(st.status)


@command.command("logs")
@click.argument("run_id")
@click.option("-f", "--follow", is_flag=True,
              help="Keep printing as the run goes (from any terminal); exit with its code when it ends.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON lines: each event as `run --json` prints it, and output.logged records.")
@handle_errors
def logs_cmd(run_id: str, follow: bool, as_json: bool) -> None:
    """The run's events and each action's output, in order.

    With -f: exit 0 when the run reaches its goal, 3 when it escalates, 1 on
    error; a run that already ended prints its log and exits with its code.
    """
    store = RunStore(resolve("run", run_id))
    store.load()  # a clear error for a run that never started or is damaged
    tail = Tail(store.events_path, store.root)
    show = _stamped()
    first = True
    with quiet_interrupt():
        while True:
            new = tail.new()
            for rec in new:
                if as_json:
                    echo_json(rec)
                else:
                    show(rec)
                if rec.get("event") in ("action.finished", "action.interrupted"):
                    got = _tick_log(store, rec)
                    if got is not None:
                        _print_log(rec, got, as_json, store.run_id)
            ended = next((_EXIT[s] for s in (_status_of(r) for r in new) if s in _EXIT), None)
            if not follow:
                return
            if first:
                first = False
                if ended is None:
                    ended = _settled(store)
                if ended is None and not as_json:
                    out_console.print(f"[dim]following {store.run_id} (Ctrl-C to stop)…[/]", markup=True)
            elif ended is None and not new:
                ended = _settled(store)
            if ended is not None:
                sys.exit(ended)
            time.sleep(POLL_SECONDS)


def _stamped() -> Callable[[dict[str, Any]], None]:
    """``run``'s own event lines (runtime.progress), each event's first line prefixed with its time."""
    buf = io.StringIO()
    colors: Any = out_console.color_system  # the same colours as the real console (none with NO_COLOR or a pipe)
    con = Console(file=buf, force_terminal=out_console.is_terminal, color_system=colors,
                  width=out_console.width, soft_wrap=True, highlight=False, emoji=False)
    report = rich_reporter(con)

    def show(rec: dict[str, Any]) -> None:
        buf.seek(0)
        buf.truncate()
        try:
            report(terminal_safe(rec))
        except (KeyError, TypeError, AttributeError, ValueError, IndexError, MarkupError):
            # The reporter formats the records a run writes; one a damaged log holds is shown as what it is.
            buf.seek(0)
            buf.truncate()
            buf.write(f"{clean(str(rec.get('event'))[:80])} (a damaged record; `runs logs --json` shows it as it is)\n")
        for i, line in enumerate(buf.getvalue().splitlines()):
            out_console.file.write(f"{time_of(rec) if i == 0 else ' ' * 8} {line}\n")
        out_console.file.flush()

    return show


def _status_of(rec: dict[str, Any]) -> str | None:
    return {"run.reached": "reached", "run.escalated": "escalated", "run.failed": "error"}.get(str(rec.get("event")))


def _print_log(rec: dict[str, Any], got: tuple[str, str], as_json: bool, run_id: str) -> None:
    name, text = got
    if as_json:
        echo_json({"runId": run_id, "event": "output.logged", "tick": rec.get("tick"), "action": rec.get("action"),
                   "text": text})
        return
    out_console.print(f"--- tick {rec.get('tick')} · {clean(rec.get('action'))} output ({clean(name)}) ---",
                      markup=False)
    out_console.print(clean(text.rstrip("\n")) or "(no output)", markup=False)
    out_console.print("---", markup=False)
