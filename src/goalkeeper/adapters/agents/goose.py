"""Goose: ``goose run --text=PROMPT --no-session``; text output, no cost reported.

The summary is the last lines of the output; the cost is unknown (0, flagged).
Goose has no enforced read-only mode: it cannot be the oracle. The prompt is
attached (``--text=TEXT``): clap refuses a separate value that starts with ``-``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, last_lines

__all__ = ["Goose"]


class Goose(AgentCLI):
    name = "goose"
    program = "goose"

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        argv = [self.program, "run", f"--text={prompt}", "--no-session"]
        if model:
            argv += ["--model", model]
        return argv + list(extra)

    def parse(self, res: ProcResult) -> AgentOutput:
        if res.exit_code != 0:
            return self.failure(res)
        return AgentOutput(True, last_lines(res.stdout, 8))
