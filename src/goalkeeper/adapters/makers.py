"""Makers: whoever changes the code. One registry; ``command`` is built in.

A maker gets the objective and the oracle's last hint and edits the workspace.
The command maker runs an argv (never a shell string). ``{objective}``,
``{hint}``, ``{iteration}`` and ``{goal_id}`` may appear as *whole* argv items;
the same values are always in ``GOALKEEPER_OBJECTIVE``, ``GOALKEEPER_HINT``,
``GOALKEEPER_ITERATION``, ``GOALKEEPER_GOAL_ID`` and ``GOALKEEPER_WORKSPACE``.

Cost reporting: if the maker's last non-empty stdout line is a JSON object, its
``costDollars`` (number) and ``summary`` (string) are used, e.g.
``{"costDollars": 0.12, "summary": "fixed the off-by-one in parse()"}``.
Otherwise the cost is 0 and the summary is the last stdout line.
"""

from __future__ import annotations

import json
from typing import Any

# The contract and the registry are the loop's (convergence.contracts); makers implement and register.
from ..convergence.contracts import (
    MAKERS,
    Maker,
    MakerRequest,
    MakerResult,
    get_maker,
    register_maker,
)
from ..errors import ConfigError
from ..proc import Runner, run_argv

__all__ = [
    "MAKERS",
    "CommandMaker",
    "HostMaker",
    "Maker",
    "MakerRequest",
    "MakerResult",
    "get_maker",
    "parse_report",
    "register_maker",
]


def parse_report(stdout: str) -> dict[str, Any]:
    """The maker's last-line JSON report (``costDollars``, ``summary``), or {}."""
    lines = [ln.strip() for ln in stdout.splitlines() if ln.strip()]
    if not lines or not lines[-1].startswith("{"):
        return {}
    try:
        data = json.loads(lines[-1])
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


class CommandMaker:
    """Runs ``argv`` in the workspace with a timeout; the values go in as whole items or env vars."""

    name = "command"

    def __init__(self, argv: list[str], *, env: dict[str, str] | None = None, runner: Runner = run_argv) -> None:
        if not argv:
            raise ConfigError("the command maker needs an argv; pass one with --maker 'PROGRAM ARGS'")
        self.argv = list(argv)
        self.env = dict(env or {})
        self.runner = runner

    def make(self, request: MakerRequest) -> MakerResult:
        values = {
            "{objective}": request.objective,
            "{hint}": request.hint or "",
            "{iteration}": str(request.iteration),
            "{goal_id}": request.goal_id,
        }
        argv = [values.get(a, a) for a in self.argv]
        env = {
            **self.env,
            "GOALKEEPER_OBJECTIVE": request.objective,
            "GOALKEEPER_HINT": request.hint or "",
            "GOALKEEPER_ITERATION": str(request.iteration),
            "GOALKEEPER_GOAL_ID": request.goal_id,
            "GOALKEEPER_WORKSPACE": str(request.workspace),
        }
        res = self.runner(argv, cwd=request.workspace, timeout=request.timeout, env=env, merge_output=False)
        report = parse_report(res.stdout)
        cost = report.get("costDollars", 0.0)
        lines = [ln.strip() for ln in res.stdout.splitlines() if ln.strip()]
        summary = report.get("summary") or (lines[-1] if lines and not report else "")
        if res.timed_out:
            summary = f"timed out after {request.timeout:g}s; " + str(summary)
        elif res.exit_code != 0:
            err = [ln for ln in res.stderr.splitlines() if ln.strip()]
            summary = f"exit {res.exit_code}: " + (err[-1] if err else str(summary))
        return MakerResult(
            summary=str(summary)[:2000],
            cost_dollars=float(cost) if isinstance(cost, int | float) and cost >= 0 else 0.0,
            exit_code=res.exit_code,
            timed_out=res.timed_out,
            output_tail=res.output[-64_000:],
            spawn_error=res.spawn_error,
        )


class HostMaker:
    """The agent host is the maker (a Claude Code or Codex session): goalkeeper never starts it.

    A host goal is advanced by ``goalkeeper goal check``: the host edits the
    workspace, then each check runs one sealed iteration on what it left.
    """

    name = "host"

    def make(self, request: MakerRequest) -> MakerResult:
        return MakerResult(summary="changes made by the agent host", exit_code=0)


register_maker("command", lambda spec: CommandMaker(spec.argv, env=spec.env))
register_maker("host", lambda spec: HostMaker())
