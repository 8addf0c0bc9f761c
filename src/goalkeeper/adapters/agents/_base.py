"""What every coding-agent CLI adapter shares: argv building, running, parsing, maker and oracle.

A CLI adapter is a small :class:`AgentCLI`: how to build the argv (prompt as
one argv item, never through a shell), and how to read the CLI's machine
output into an :class:`AgentOutput`. :class:`AgentMaker` turns that into a
``MakerResult``; :class:`AgentOracle` runs the CLI in its read-only mode and
reads a verdict JSON from its answer. The loop's working-tree check still
applies to every oracle; a CLI whose read-only mode is only advisory is
refused as an oracle unless ``allow_advisory_readonly=True`` is passed.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import ConfigError
from ...llm import PriceTable, Usage, extract_json
from .._proc import ProcResult, Runner, run_argv
from ..makers import MakerRequest, MakerResult

__all__ = ["AgentCLI", "AgentMaker", "AgentOutput", "argv_text", "build_prompt", "json_lines", "last_lines"]


@dataclass(frozen=True, slots=True)
class AgentOutput:
    """What a CLI run reported. ``cost_dollars`` is None when the CLI reports no cost."""

    ok: bool
    text: str
    cost_dollars: float | None = None
    usage: Usage | None = None
    model: str | None = None
    error: str | None = None
    session_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def json_lines(text: str) -> Iterator[dict[str, Any]]:
    """Every line of ``text`` that is a JSON object (JSONL event streams mixed with noise)."""
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            yield obj


def last_json_object(text: str) -> dict[str, Any] | None:
    """The CLI's single JSON document (possibly pretty-printed, possibly after log noise)."""
    stripped = text.strip()
    if not stripped:
        return None
    try:
        obj = json.loads(stripped)
        return obj if isinstance(obj, dict) else None
    except ValueError:
        pass
    objs = list(json_lines(stripped))
    if objs:
        return objs[-1]
    start = stripped.find("{")
    if start < 0:
        return None
    try:
        obj = extract_json(stripped[start:])
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def last_lines(text: str, n: int = 5) -> str:
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value >= 0 else None


_SURROGATE = re.compile("[\ud800-\udfff]")


def argv_text(text: str) -> str:
    """``text`` as an argv item can carry it: no NUL byte (the OS refuses it), no lone
    surrogate (it cannot be encoded)."""
    return _SURROGATE.sub("\ufffd", text.replace("\x00", ""))


def build_prompt(objective: str, hint: str | None, iteration: int) -> str:
    """Objective first; the judge's hint after it. One argv item, so no quoting issues."""
    text = objective.strip()
    if hint:
        text += f"\n\nFeedback from the previous iteration ({iteration - 1}):\n{hint.strip()}"
    return argv_text(text)


class AgentCLI:
    """One CLI. Subclasses set the names and implement ``argv`` and ``parse``."""

    name: str = "agent"
    program: str = "agent"
    readonly_enforced: bool = False  # True: the CLI itself blocks writes in oracle mode
    supports_readonly: bool = False

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        raise NotImplementedError

    def parse(self, res: ProcResult) -> AgentOutput:
        raise NotImplementedError

    def failure(self, res: ProcResult, what: str | None = None) -> AgentOutput:
        err = what or last_lines(res.stderr, 3) or last_lines(res.stdout, 3) or f"exit {res.exit_code}"
        return AgentOutput(False, "", None, error=err)


class AgentMaker:
    """A coding-agent CLI as the maker; cost from the CLI, else from its token usage, else unknown."""

    def __init__(
        self,
        cli: AgentCLI,
        *,
        model: str | None = None,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        program: str | None = None,
        prices: PriceTable | None = None,
        runner: Runner = run_argv,
    ) -> None:
        self.cli = cli
        self.name = cli.name
        self.model = model
        self.extra_args = list(extra_args)
        self.env = dict(env or {})
        self.program = program
        self.prices = prices
        self.runner = runner
        self.last_output: AgentOutput | None = None
        self.last_cost_known = True

    def command(self, prompt: str, *, read_only: bool = False) -> list[str]:
        argv = self.cli.argv(argv_text(prompt), model=self.model, read_only=read_only, extra=self.extra_args)
        if self.program:
            argv[0] = self.program
        return argv

    def run(self, prompt: str, workspace: os.PathLike[str] | str, timeout: float | None,
            *, read_only: bool = False, env: Mapping[str, str] | None = None) -> tuple[ProcResult, AgentOutput]:
        argv = self.command(prompt, read_only=read_only)
        res = self.runner(argv, cwd=workspace, timeout=timeout, env={**self.env, **(env or {})},
                          merge_output=False)
        if res.timed_out:
            out = AgentOutput(False, "", None, error=f"timed out after {timeout:g}s" if timeout else "timed out")
        elif res.exit_code == 127 and not res.stdout:
            out = AgentOutput(False, "", None, error=(
                f"{res.stderr.strip() or 'cannot run ' + argv[0]}; install {self.cli.program!r} "
                f"or set maker.options.program to its path"))
        else:
            try:
                out = self.cli.parse(res)
            except Exception as e:  # odd numbers or shapes in the CLI's output: a failed run, not a crash
                out = AgentOutput(False, "", None, error=f"unreadable {self.cli.program} output: {type(e).__name__}: {e}")
        return res, out

    def cost_of(self, out: AgentOutput) -> tuple[float, bool]:
        c = out.cost_dollars
        if c is not None:
            if isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c) and c >= 0:
                return float(c), True
            return 0.0, False  # a cost field that is not a number is not a known cost
        model = out.model or self.model
        if out.usage is not None and model:
            if self.prices is None:  # one table per maker: unknown-price warnings fire once
                self.prices = PriceTable()
            return self.prices.cost(model, out.usage)
        return 0.0, False

    def make(self, request: MakerRequest) -> MakerResult:
        prompt = build_prompt(request.objective, request.hint, request.iteration)
        env = {"GOALKEEPER_GOAL_ID": request.goal_id, "GOALKEEPER_ITERATION": str(request.iteration),
               "GOALKEEPER_WORKSPACE": str(request.workspace)}
        res, out = self.run(prompt, request.workspace, request.timeout, env=env)
        self.last_output = out
        cost, self.last_cost_known = self.cost_of(out)
        code: int | None = 0
        if out.ok:
            summary = out.text.strip() or "(the agent reported no summary)"
        else:  # a CLI that reports an error with exit 0 still counts as a failed maker run
            summary = f"{self.name} failed: {out.error or 'unknown error'}"
            code = None if res.timed_out else (res.exit_code or 1)
        return MakerResult(
            summary=summary[:2000],
            cost_dollars=round(cost, 8),
            exit_code=code,
            timed_out=res.timed_out,
            output_tail=res.output[-2000:],
            cost_known=self.last_cost_known,
        )


def require_readonly(cli: AgentCLI, allow_advisory: bool) -> None:
    """Refuse an oracle that could write, unless told the tree check is enough."""
    if not cli.supports_readonly:
        raise ConfigError(f"{cli.name} has no read-only mode; it cannot be the oracle (use it as the maker)")
    if not cli.readonly_enforced and not allow_advisory:
        raise ConfigError(
            f"{cli.name}'s read-only mode is advisory, not enforced by the CLI; pass "
            "allow_advisory_readonly=True (oracle.options) to rely on goalkeeper's working-tree check alone"
        )
