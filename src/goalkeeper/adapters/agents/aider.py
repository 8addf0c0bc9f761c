"""Aider: ``aider --message=PROMPT --yes-always --no-pretty --no-stream --no-auto-commits``.

Output is text. The cost is read from aider's report line
``Tokens: 2.1k sent, 150 received. Cost: $0.01 message, $0.05 session.`` (the
*message* cost, summed if several appear); no line means the cost is unknown.
``--no-auto-commits`` keeps the user's branch untouched (goalkeeper checkpoints
to private refs). Aider has no read-only mode that blocks writes: it cannot be the oracle.
The prompt is attached (``--message=TEXT``): argparse refuses a separate value that
starts with ``-`` ("expected one argument").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...llm import Usage
from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, last_lines

__all__ = ["Aider", "parse_tokens"]

_COST = re.compile(r"Cost:\s*\$([0-9]*\.?[0-9]+)\s+message", re.IGNORECASE)
_TOKENS = re.compile(r"Tokens:\s*([0-9.]+)([km]?)\s+sent,\s*([0-9.]+)([km]?)\s+received", re.IGNORECASE)
_NOISE = re.compile(r"^(Tokens:|Cost:|Aider v|Model:|Git repo:|Repo-map:|Main model:|Weak model:|Added .* to the chat)")


def parse_tokens(num: str, unit: str) -> int:
    return int(round(float(num) * {"": 1, "k": 1_000, "m": 1_000_000}[unit.lower()]))


class Aider(AgentCLI):
    name = "aider"
    program = "aider"

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        argv = [self.program, f"--message={prompt}", "--yes-always", "--no-pretty", "--no-stream",
                "--no-auto-commits"]
        if model:
            argv += ["--model", model]
        return argv + list(extra)

    def parse(self, res: ProcResult) -> AgentOutput:
        costs = [float(m.group(1)) for m in _COST.finditer(res.stdout)]
        inp = out = 0
        toks = list(_TOKENS.finditer(res.stdout))
        for m in toks:
            inp += parse_tokens(m.group(1), m.group(2))
            out += parse_tokens(m.group(3), m.group(4))
        body = [ln for ln in res.stdout.splitlines() if ln.strip() and not _NOISE.match(ln.strip())]
        if res.exit_code != 0:
            return AgentOutput(False, "\n".join(body[-5:]), sum(costs) if costs else None,
                               error=last_lines(res.stderr, 3) or last_lines(res.stdout, 3) or f"exit {res.exit_code}")
        return AgentOutput(
            ok=True,
            text="\n".join(body[-5:]),
            cost_dollars=round(sum(costs), 8) if costs else None,
            usage=Usage(inp, out) if toks else None,
        )
