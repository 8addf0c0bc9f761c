"""``goalkeeper goal``: create, run, inspect, pause, resume, abandon and roll back goals.

Exit codes of ``goal run``/``goal resume``: 0 converged, 1 error or abandoned,
3 escalated (see ``goalkeeper triage list``), 4 paused (not done yet).
"""

from __future__ import annotations

import math
import os
import shlex
import sys
import time
from collections.abc import Callable
from typing import Any

import click
from rich.status import Status

from ..convergence import (
    Budget,
    Goal,
    Guards,
    MakerSpec,
    OracleConfig,
    check_goal,
    conditions_from_commands,
    create_goal,
    load_goal,
    rollback_goal,
)
from ..convergence.goal import CONDITION_TYPES
from ..convergence.protect import DEFAULT_TESTS
from ..convergence.verdict import check_verdict
from ..engines import Engine
from ..engines.cli_options import EngineChoice, engine_options
from ..errors import ConfigError, GoalkeeperError
from ..store.atomic import USER_FILE, write_json_atomic
from ._common import (
    EXIT_ERROR,
    EXIT_ESCALATED,
    EXIT_NOT_DONE,
    EXIT_OK,
    clean,
    echo_json,
    err_console,
    handle_errors,
    out_console,
    percent,
    resolve,
)
from ._common import esc as _esc
from ._config import with_goal_defaults
from ._help import CONFIG_HELP, PROTECTED_HELP
from ._live import event_lines, goal_status, status_line

__all__ = ["command"]


def _limit(value: str | None, cast: type[float] | type[int], flag: str | None = None) -> float | int | None:
    if value is None or value.lower() in ("none", "unlimited"):
        return None
    try:
        n = cast(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a number (or 'none' for unlimited)", param_hint=flag) from None
    if not math.isfinite(n):  # inf/nan would reach the goal file as Infinity/NaN, which is not JSON
        raise click.BadParameter(f"{value!r} is not a finite number; write 'none' for unlimited", param_hint=flag)
    return n


@click.group("goal")
def command() -> None:
    """Goal convergence: a maker iterates until stopping conditions hold, judged by an oracle."""


@command.command("new", epilog=PROTECTED_HELP + "\n\n" + CONFIG_HELP)
@click.argument("objective")
@click.option("--until", "until", multiple=True, metavar="CMD",
              help="Stopping condition command (repeatable); run without a shell. Left out: inferred from "
                   "the workspace (pytest, npm test, cargo test, ruff ...) and marked inferred in the goal.")
@click.option("--type", "types", multiple=True, type=click.Choice(CONDITION_TYPES),
              help="Type of the matching --until (in order); inferred when left out.")
@click.option("--threshold", type=float, callback=percent, help="Percent for coverage_threshold conditions.")
@click.option("--maker", "maker", metavar="ARGV", help="Maker command, split into argv; "
              "{objective}/{hint} may be whole arguments.")
@click.option("--maker-type", default="command", show_default=True,
              help="command, or a coding-agent CLI: claude-code, codex, gemini, opencode, aider, goose.")
@click.option("--maker-model", default=None, help="The maker's model (the oracle must use another).")
@click.option("--maker-option", "maker_options", multiple=True, metavar="KEY=VALUE",
              help="Coding-agent maker setting, e.g. permission_mode=acceptEdits or program=/opt/bin/claude.")
@click.option("--maker-timeout", default="30m", show_default=True, help="Per-iteration maker timeout.")
@click.option("--max-iterations", default="15", show_default=True, help="Number, or 'none'.")
@click.option("--max-duration", default="2h", show_default=True, help="'2h', '30m', '90s' or 'none'.")
@click.option("--max-dollars", default="10", show_default=True, help="Number, or 'none'.")
@click.option("--workspace", type=click.Path(file_okay=False, exists=True), help="Default: current dir.")
@click.option("--protect", multiple=True, metavar="GLOB",
              help="Extra sealed path glob: any edit, deletion or addition rejects the iteration (repeatable).")
@click.option("--no-default-protect", is_flag=True,
              help="Drop the default test globs (tool config files, CI and ignore files stay sealed).")
@click.option("--allow-edit", "allow_edit", multiple=True, metavar="GLOB",
              help="A protected path the maker may change, e.g. pyproject.toml to add a dependency (repeatable).")
@click.option("--check-output", "check_outputs", multiple=True, metavar="GLOB",
              help="Files the checks themselves create in the workspace (repeatable); any other change "
                   "by a check voids the iteration.")
@click.option("--check-env", "check_env", multiple=True, metavar="KEY=VALUE",
              help="A variable the checks run with (the caller's PYTHON*, PYTEST_*, COVERAGE_* are dropped).")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "none"]), default="auto", show_default=True,
              help="Run a command maker under bubblewrap (workspace writable, rest read-only, state hidden).")
@click.option("--session", default=None, metavar="ID",
              help="With --maker-type host: bind the goal to one agent session (its hooks act on it only).")
@click.option("--no-progress", "no_progress", default=3, show_default=True,
              help="Iterations without change before escalating no_progress.")
@click.option("--oracle", "--oracle-model", "oracle_model", default="deterministic", show_default=True,
              help="deterministic, openai:MODEL, anthropic:MODEL or agent:CLI[:MODEL] (read-only).")
@click.option("--oracle-option", "oracle_options", multiple=True, metavar="KEY=VALUE",
              help="Oracle provider setting, e.g. base_url=http://127.0.0.1:8080/v1 (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the goal as JSON.")
@handle_errors
@with_goal_defaults
def new_cmd(objective: str, until: tuple[str, ...], types: tuple[str, ...], threshold: float | None,
            maker: str | None, maker_type: str, maker_model: str | None, maker_options: tuple[str, ...],
            maker_timeout: str,
            max_iterations: str, max_duration: str,
            max_dollars: str, workspace: str | None, protect: tuple[str, ...], no_default_protect: bool,
            allow_edit: tuple[str, ...], check_outputs: tuple[str, ...], check_env: tuple[str, ...],
            sandbox: str, session: str | None, no_progress: int, oracle_model: str,
            oracle_options: tuple[str, ...], as_json: bool) -> None:
    """Create a goal (persisted before anything runs) and print its id.

    Before anything is saved, every check and the maker are resolved as the run
    will resolve them (`goalkeeper doctor` explains the same findings); a goal
    that could never work is refused with the fix (exit 1). With no --until,
    the checks are inferred from the workspace; nothing to infer is exit 2.
    """
    from pathlib import Path

    from ..convergence.infer import infer_conditions
    from ..convergence.preflight import preflight_parts, refuse
    from ..errors import ConfigError

    _check_names(maker_type, oracle_model)
    budget = Budget(
        max_iterations=_limit(max_iterations, int, "--max-iterations"),
        max_duration=None if max_duration.lower() in ("none", "unlimited") else max_duration,
        max_dollars=_limit(max_dollars, float, "--max-dollars"),
    )
    guards = Guards(protected_paths=list(protect), test_paths=[] if no_default_protect else list(DEFAULT_TESTS),
                    allow_edit=list(allow_edit), check_outputs=list(check_outputs),
                    no_progress_iterations=no_progress)
    ws = Path(workspace or ".").resolve()
    source: dict[str, Any] = {"session": session} if session else {}
    if until:
        conditions = conditions_from_commands(list(until), list(types), threshold)
    else:
        if types:
            raise click.UsageError("--type pairs with --until; give the --until commands too")
        try:
            inferred = infer_conditions(ws, objective)
        except ConfigError as e:
            raise click.UsageError(str(e)) from None
        conditions = inferred.conditions()
        if threshold is not None:
            for c in conditions:
                if c.type == "coverage_threshold":
                    c.threshold = threshold
        source["inferred"] = inferred.source()
        for line in inferred.explain():
            err_console.print(clean(line), markup=False)
    maker_spec = MakerSpec(type=maker_type, argv=_split_maker(maker), model=maker_model,
                           timeout=maker_timeout, sandbox=sandbox, options=_maker_options(maker_type, maker_options))
    oracle_cfg = OracleConfig(model=oracle_model, options=_options(oracle_model, oracle_options))
    condition_env = {k: v for k, v in (_kv(x, "--check-env") for x in check_env)}
    report = preflight_parts(conditions, maker_spec, oracle_cfg, ws, condition_env=condition_env,
                             maker_text=maker, flags=True)
    for p in report.warnings:
        err_console.print("warning: " + clean(p.text()), markup=False)
    refuse(report, "goal new refused")
    if not until and not as_json and sys.stdin.isatty():  # inferred checks are confirmed by a person at a terminal
        click.confirm("use the inferred checks above?", default=True, abort=True, err=True)
    for n in report.notes:
        if n.where == "--sandbox":
            err_console.print(f"sandbox: {clean(n.text)}", markup=False)
    goal = create_goal(
        objective,
        conditions,
        budget=budget,
        maker=maker_spec,
        oracle=oracle_cfg,
        guards=guards,
        workspace=ws,
        condition_env=condition_env,
        source=source or None,
    )
    if as_json:
        echo_json(goal.dump())
    else:
        click.echo(goal.goal_id)
    if not maker and maker_type == "command":
        err_console.print(f"warning: {goal.goal_id} has no maker; `goal run` needs one (pass --maker 'PROGRAM ARGS')")


def _kv(item: str, flag: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key:
        raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint=flag)
    return key, value


class _Progress:
    """Event sink of `goal run`: lines per event and, on a terminal, one live status line
    (iteration k/N, phase and for how long, active time, dollars spent and left, last hint);
    with ``--json``, the raw event as a JSON line."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.status: Status | None = None
        self.snapshot: dict[str, Any] | None = None
        self._at = time.monotonic()

    def __call__(self, ev: dict[str, Any]) -> None:
        if self.as_json:
            echo_json(ev)
            return
        self._refresh(str(ev.get("goalId", "")))
        if self.status is not None:
            self.status.update(self)
        for line in event_lines(ev):
            out_console.print(line)

    def _refresh(self, goal_id: str) -> None:
        """Re-read the goal this process is running (best effort: a remote engine has no local file)."""
        try:
            self.snapshot = goal_status(load_goal(goal_id), pid=os.getpid())
            self._at = time.monotonic()
        except (GoalkeeperError, OSError, ValueError):
            pass

    def __rich__(self) -> str:  # re-rendered by the spinner, so the clocks tick between events
        if self.snapshot is None:
            return "starting…"
        width = out_console.width - 4
        return _esc(status_line(self.snapshot, extra_seconds=time.monotonic() - self._at, width=width))


def _with_progress(as_json: bool, work: Callable[[_Progress], Goal]) -> Goal:
    """Run ``work`` with the event sink; on a terminal a rich spinner names the phase in flight."""
    progress = _Progress(as_json)
    if as_json or not out_console.is_terminal:
        return work(progress)
    with out_console.status(progress) as status:
        progress.status = status
        return work(progress)


def _preflight(eng: Engine, goal_id: str, *, resuming: bool = False) -> None:
    for w in eng.preflight_goal(goal_id, resuming=resuming):
        err_console.print("warning: " + clean(w), markup=False)


def _exit_for(goal: Goal) -> int:
    return {"converged": EXIT_OK, "paused": EXIT_NOT_DONE, "escalated": EXIT_ESCALATED}.get(goal.state, EXIT_ERROR)


def _finished(goal: Goal, as_json: bool) -> None:
    """`goal run` of a goal that already ended: say how, so the exit code is not the only answer."""
    if as_json:
        echo_json({"goalId": goal.goal_id, "state": goal.state, "escalation": goal.escalation.dump()
                   if goal.escalation else None, "finished": True})
        return
    line = f"{goal.goal_id} already {goal.state}"
    if goal.escalation is not None:
        line += f" ({goal.escalation.reason}): {goal.escalation.detail}"
        if goal.escalation.triage_id:
            line += f"\n  triage item {goal.escalation.triage_id}: `goalkeeper triage show {goal.escalation.triage_id}`"
    if goal.state in ("escalated", "paused"):
        line += f"\n  continue it with `goalkeeper goal resume {goal.goal_id}` (raise a budget with --max-...)"
    click.echo(clean(line))


def _run_one(eng: Engine, goal_id: str, as_json: bool, detach: bool) -> int:
    _preflight(eng, goal_id)  # a goal that could never work now (a tool uninstalled) costs nothing
    before = _peek(eng, goal_id)
    if detach:
        eng.run_goal(goal_id, wait=False)
        if as_json:
            echo_json({"goalId": goal_id, "engine": eng.name, "where": eng.describe(), "state": "started"})
        else:
            click.echo(f"{goal_id}: started on {eng.describe()}")
        return EXIT_OK
    goal = _with_progress(as_json, lambda p: eng.run_goal(goal_id, on_event=p))
    if before is not None and before.state != "active" and goal.state == before.state and \
            len(goal.history) == len(before.history):
        _finished(goal, as_json)  # nothing ran: it had already ended
    return _exit_for(goal)


def _peek(eng: Engine, goal_id: str) -> Goal | None:
    try:
        return eng.fetch_goal(goal_id)
    except GoalkeeperError:
        return None  # not there yet, or damaged: the run itself says what is wrong


@command.command("run")
@click.argument("goal_ids", metavar="GOAL_ID...", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Stream events as JSON lines (each carries its goalId).")
@click.option("--detach", is_flag=True, help="With --engine temporal: start the workflow and return.")
@click.option("--parallel", type=click.IntRange(min=1), default=None, metavar="N",
              help="Run the goals at once, at most N at a time (default 4), each in its own process; two "
                   "goals on one workspace are refused.")
@click.option("--all-active", is_flag=True, help="Run every active goal (host-maker goals are left to their host).")
@engine_options
@handle_errors
def run_cmd(goal_ids: tuple[str, ...], as_json: bool, detach: bool, parallel: int | None, all_active: bool,
            engine: EngineChoice) -> None:
    """Run the loop until the goal converges, escalates or is paused; resumes after a crash.

    Several goals (or --parallel, --all-active) run as one wave with one live
    display; the exit code is the worst outcome: 1 error or abandoned, then 3
    escalated, then 4 paused (not done), then 0 when every goal converged.
    """
    if all_active and goal_ids:
        raise click.UsageError("give goal ids or --all-active, not both")
    if not goal_ids and not all_active:
        raise click.UsageError("name a goal to run (GOAL_ID), several, or --all-active")
    eng = engine.engine()
    if len(goal_ids) == 1 and parallel is None and not all_active:
        sys.exit(_run_one(eng, eng.resolve_goal_id(goal_ids[0]), as_json, detach))
    if eng.name != "local" or detach:  # a capability, not a different code path
        raise click.UsageError("a wave of goals runs locally; start each goal on Temporal with "
                               "`goalkeeper goal run ID --engine temporal --detach`")
    from ._wave import run_wave_cmd

    sys.exit(run_wave_cmd(goal_ids, all_active, parallel, as_json))


@command.command("check")
@click.argument("goal_id")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@handle_errors
def check_cmd(goal_id: str, as_json: bool) -> None:
    """Judge a host-maker goal: one sealed iteration on what the agent host left in the workspace.

    Exit codes: 0 converged, 3 escalated (budget, tampering, no progress: see
    `goalkeeper triage list`), 4 not converged yet (the next hint says what is
    left), 1 error.
    """
    goal = check_goal(resolve("goal", goal_id))
    verdict = check_verdict(goal)
    if as_json:
        echo_json(verdict)
    else:
        click.echo(f"{goal.goal_id}: {verdict['state']}" + (f" ({verdict['reason']})" if verdict["reason"] else ""))
        for line in verdict["failing"]:
            click.echo(f"  failing: {clean(line)}")
        for line in verdict["findings"]:
            click.echo(f"  rejected: {clean(line)}")
        if verdict["nextHint"] and goal.state == "active":
            click.echo(f"  next: {clean(verdict['nextHint'])}")
    sys.exit({"converged": EXIT_OK, "escalated": EXIT_ESCALATED, "active": EXIT_NOT_DONE,
              "paused": EXIT_NOT_DONE}.get(goal.state, EXIT_ERROR))


@command.command("export")
@click.argument("goal_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write here (default: stdout).")
@engine_options
@handle_errors
def export_cmd(goal_id: str, output: str | None, engine: EngineChoice) -> None:
    """The goal as JSON (goal.schema.json), from the local store or from Temporal.

    To move a local goal into Temporal, `goal run ID --engine temporal --detach`.
    """
    eng = engine.engine()
    data = eng.fetch_goal(eng.resolve_goal_id(goal_id)).dump()
    if output:
        write_json_atomic(output, data, mode=USER_FILE)
        err_console.print(f"wrote {output}")
    else:
        echo_json(data)


@command.command("resume")
@click.argument("goal_id")
@click.option("--max-iterations", type=int, help="Raise the iteration limit.")
@click.option("--max-dollars", type=float, help="Raise the dollar limit.")
@click.option("--max-duration", help="Raise the duration limit.")
@click.option("--no-run", is_flag=True, help="Only mark it active; run it later with `goal run`.")
@click.option("--json", "as_json", is_flag=True)
@engine_options
@handle_errors
def resume_cmd(goal_id: str, max_iterations: int | None, max_dollars: float | None,
               max_duration: str | None, no_run: bool, as_json: bool, engine: EngineChoice) -> None:
    """Continue a paused goal (the maker gets the last nextHint)."""
    eng = engine.engine()
    goal_id = eng.resolve_goal_id(goal_id)
    if not no_run:  # the fix of an 'unrunnable' escalation is checked before the goal is reopened
        _preflight(eng, goal_id, resuming=True)
    goal = _with_progress(as_json, lambda p: eng.resume_goal(
        goal_id, max_iterations=max_iterations, max_dollars=max_dollars, max_duration=max_duration,
        run=not no_run, on_event=p))
    if no_run:
        echo_json({"goalId": goal_id, "state": goal.state}) if as_json else click.echo(f"{goal_id} active")
        return
    sys.exit(_exit_for(goal))


@command.command("pause")
@click.argument("goal_id")
@engine_options
@handle_errors
def pause_cmd(goal_id: str, engine: EngineChoice) -> None:
    """Pause a goal; a running loop stops at its next phase boundary."""
    eng = engine.engine()
    goal_id = eng.resolve_goal_id(goal_id)
    what = eng.pause_goal(goal_id)
    click.echo(f"{goal_id}: pause {'requested (the loop stops at the next phase)' if what == 'requested' else 'done'}")


@command.command("abandon")
@click.argument("goal_id")
@engine_options
@handle_errors
def abandon_cmd(goal_id: str, engine: EngineChoice) -> None:
    """Give up on a goal (state failed, escalation reason manual)."""
    eng = engine.engine()
    goal_id = eng.resolve_goal_id(goal_id)
    what = eng.abandon_goal(goal_id)
    click.echo(f"{goal_id}: {'abandon requested' if what == 'requested' else 'abandoned'}")


@command.command("rollback")
@click.argument("goal_id")
@click.option("--to", "to", required=True,
              help="Iteration number, 0 (or 'baseline') for the tree before the goal, or saved[-N].")
@click.option("--dry-run", is_flag=True, help="List every file it would change, change nothing.")
@click.option("--force", is_flag=True, help="Save changes that are in no checkpoint first, then roll back.")
@handle_errors
def rollback_cmd(goal_id: str, to: str, dry_run: bool, force: bool) -> None:
    """Restore the workspace to a checkpoint without losing work (HEAD and index untouched).

    Refuses when the workspace holds changes that are in no checkpoint, unless
    --force: then they are saved as checkpoint saved-N first (roll back to it
    with --to saved-N).
    """
    goal_id = resolve("goal", goal_id)
    plan = rollback_goal(goal_id, to, force=force, dry_run=dry_run)
    if dry_run:
        for p in plan.write:
            click.echo(f"write   {p}")
        for p in plan.delete:
            click.echo(f"delete  {p}")
        for p in plan.unsaved:
            click.echo(f"unsaved {p} (in no checkpoint: --force saves it first)")
        click.echo(f"{goal_id}: rolling back to {plan.target} would write {len(plan.write)} and delete "
                   f"{len(plan.delete)} file(s)")
        return
    if plan.saved_as:
        click.echo(f"{goal_id}: saved {len(plan.unsaved)} unsaved file(s) as {plan.saved_as}; get them back with "
                   f"`goalkeeper goal rollback {goal_id} --to {plan.saved_as}`")
    click.echo(f"{goal_id}: workspace restored to {plan.target} ({len(plan.write)} written, "
               f"{len(plan.delete)} removed)")


def _options(oracle_model: str, pairs: tuple[str, ...]) -> dict[str, Any]:
    """KEY=VALUE pairs typed for the oracle (``max_retries=0`` is the int 0), checked now."""
    from ..adapters.agents import oracle_option_values

    out: dict[str, str] = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{p!r} is not KEY=VALUE", param_hint="--oracle-option")
        out[key] = value
    return oracle_option_values(oracle_model, out)


def _maker_options(maker_type: str, pairs: tuple[str, ...]) -> dict[str, Any]:
    """KEY=VALUE pairs typed for the maker (coding-agent CLIs declare theirs), checked now."""
    values = dict(_kv(p, "--maker-option") for p in pairs)
    if not values:
        return {}
    if maker_type in ("command", "host"):
        raise ConfigError(f"--maker-option: the {maker_type} maker takes no options; put its arguments in "
                          "--maker 'PROGRAM ARGS' (options are for coding-agent makers, e.g. "
                          "--maker-type claude-code --maker-option permission_mode=acceptEdits)")
    from ..adapters.agents import AGENT_CLIS, AGENT_OPTIONS
    from ..llm import coerce_options

    if maker_type in AGENT_CLIS:
        return coerce_options(None, values, table=AGENT_OPTIONS, where="--maker-option")
    return values  # a third-party maker: its own factory checks them


def _split_maker(maker: str | None) -> list[str]:
    if not maker:
        return []
    try:
        return shlex.split(maker)
    except ValueError as e:
        raise click.BadParameter(f"cannot split {maker!r} into arguments: {e}", param_hint="--maker") from None


def _check_names(maker_type: str, oracle_model: str) -> None:
    """Unknown maker types and oracles are usage errors now, not failures mid-iteration."""
    from ..adapters import agents  # noqa: F401 - registers the coding-agent makers and oracles
    from ..adapters.makers import MAKERS
    from ..convergence import llm_oracle  # noqa: F401 - registers openai:/anthropic: oracles
    from ..convergence.oracle import ORACLES

    if maker_type not in MAKERS:
        raise click.BadParameter(f"unknown maker type {maker_type!r} (known: {', '.join(sorted(MAKERS))})",
                                 param_hint="--maker-type")
    prefix = oracle_model.split(":", 1)[0] + ":" if ":" in oracle_model else oracle_model
    if oracle_model not in ORACLES and prefix not in ORACLES:
        known = ", ".join(n + "MODEL" if n.endswith(":") else n for n in sorted(ORACLES))
        raise click.BadParameter(f"unknown oracle {oracle_model!r} (known: {known})", param_hint="--oracle")
