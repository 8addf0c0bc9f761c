"""``goalkeeper run SPEC``: exit 0 goal reached, 3 escalated, 1 error, 2 usage.

``--resume`` of a run that already ended reports how it ended, with that exit code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click
from rich.markup import escape

from ..engines.cli_options import EngineChoice, engine_options
from ..errors import GoalkeeperError
from ..runtime.driver import RunOptions, finished_run
from ..runtime.progress import json_reporter, rich_reporter
from ..runtime.state import RunState
from ._common import (
    EXIT_ESCALATED,
    EXIT_OK,
    EXIT_USAGE,
    camel,
    clean,
    echo_json,
    err_console,
    fail,
    handle_errors,
    out_console,
    resolve,
    terminal_safe,
)


@click.command("run")
@click.argument("spec_path", metavar="SPEC", required=False, type=click.Path(dir_okay=False))
@click.option("--max-ticks", type=click.IntRange(min=1), default=None, help="Override policy.max_ticks.")
@click.option("--yes", is_flag=True, help="Approve destructive actions marked confirm: true.")
@click.option("--json", "as_json", is_flag=True, help="Stream one JSON object per event.")
@click.option("--resume", "resume_id", metavar="RUN_ID", default=None, help="Continue a run from its last completed step.")
@click.option("--search", default="astar", show_default=True,
              type=click.Choice(["astar", "regression", "greedy"]),
              help="astar (optimal, forward; the default), greedy (fast, not optimal), regression (optimal, backward "
                   "chaining: for small GOAP specs of tens of actions; it warns on large tasks).")
@click.option("--runtime", type=click.Choice(["planner", "hybrid"]), default="planner", show_default=True,
              help="hybrid: an LLM proposes each action, code validates it before it runs.")
@click.option("--model", default=None, help="Model for --runtime hybrid (e.g. gpt-4o-mini).")
@click.option("--provider", default="openai", show_default=True, help="LLM provider for --runtime hybrid.")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint (default: env GOALKEEPER_LLM_BASE_URL).")
@click.option("--max-dollars", type=click.FloatRange(min=0), default=None, help="Dollar budget for model calls.")
@engine_options
@handle_errors
def command(spec_path: str | None, max_ticks: int | None, yes: bool, as_json: bool,
            resume_id: str | None, search: str, runtime: str, model: str | None, provider: str,
            base_url: str | None, max_dollars: float | None, engine: EngineChoice) -> None:
    """Observe, plan, act one action per tick, replan after strikes, escalate when stuck."""
    if spec_path is None and resume_id is None:
        fail("give a SPEC to run, or --resume RUN_ID", EXIT_USAGE)
    if resume_id is not None:
        resume_id = resolve("run", resume_id)
    if spec_path is not None and resume_id is None:
        _preflight(spec_path)
    eng = engine.engine()
    if resume_id:
        from .runs import check_replayable

        check_replayable(resume_id)
        done = finished_run(resume_id)
        if done is not None:
            _report_finished(done, as_json)
    proposer = None
    if runtime == "hybrid":
        if not model:
            fail("--runtime hybrid needs --model", EXIT_USAGE)
        from ..llm import get_provider
        from ..model.loader import load_spec
        from ..runtime.hybrid import LLMProposer
        from ..runtime.state import RunStore

        path = spec_path or RunStore(resume_id or "").load().spec_path
        try:
            llm = get_provider(provider, **({"base_url": base_url} if base_url else {}))
        except GoalkeeperError:
            raise
        except Exception as e:  # e.g. an unparsable --base-url inside the SDK
            fail(f"cannot set up LLM provider {provider!r}: {e}", EXIT_USAGE)
        from ..build.prompts import system_prompt

        loaded = load_spec(path)
        proposer = LLMProposer(loaded, llm, model, system_prompt(loaded, proposer=True))
    interactive = sys.stdin.isatty() and not as_json
    opts = RunOptions(
        search=search,
        max_ticks=max_ticks,
        yes=yes,
        confirm=(lambda a: click.confirm(f"run destructive action {a}?", default=False)) if interactive else None,
        reporter=json_reporter if as_json else _terminal_safe_reporter(rich_reporter(out_console)),
        proposer=proposer,
        max_dollars=max_dollars,
    )
    state = eng.resume_run(resume_id, opts, spec_path) if resume_id else eng.start_run(spec_path or "", opts)
    sys.exit(_exit_code(state))


def _terminal_safe_reporter(report: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    """The runtime's lines, with an action's output (its failure reason) unable to drive the terminal:
    ``printf '\\033]0;x\\007\\033[2J' >&2`` in an action used to set the title and clear the screen."""
    return lambda ev: report(terminal_safe(ev))


def _preflight(spec_path: str) -> None:
    """Say what would fail before the first tick: refuse errors (exit 1), print warnings."""
    import os
    from pathlib import Path

    from ..model.loader import load_spec
    from ..runtime.preflight import preflight_spec

    report = preflight_spec(load_spec(spec_path), os.environ, Path(spec_path).resolve().parent)
    for p in report.warnings:
        err_console.print("warning: " + clean(p.text()), markup=False)
    if report.errors:
        fail(report.refusal("run refused") + f"\n  (`goalkeeper doctor {spec_path}` checks it again)")


def _exit_code(state: RunState) -> int:
    if state.status == "reached":
        return EXIT_OK
    if state.status == "escalated":
        return EXIT_ESCALATED
    fail(f"run {state.run_id} ended in error (status {state.status}); see `goalkeeper runs show {state.run_id}`")


def _report_finished(state: RunState, as_json: bool) -> NoReturn:
    """`run --resume` of a run that already ended: say how it ended, exit with that outcome's code."""
    if as_json:
        echo_json({"runId": state.run_id, "status": state.status, "tick": state.tick,
                   "escalation": camel(state.escalation) if state.escalation else None})
    elif state.status == "reached":
        out_console.print(f"run {state.run_id} already reached its goal (tick {state.tick}); nothing to resume")
    elif state.escalation:
        esc = state.escalation
        out_console.print(f"run {state.run_id} already escalated ({esc['reason']}): {escape(esc['message'])}")
        tri = f"triage item {escape(str(esc['triage_id']))}" if esc.get("triage_id") else "no triage item"
        out_console.print(f"    {tri} · report {escape(str(esc.get('report') or '-'))}")
    sys.exit(_exit_code(state))
