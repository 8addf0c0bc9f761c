"""opencode: ``opencode run --format json ... -- PROMPT``.

Output: JSON lines, one per event; the fields used are ``{"type": "text",
"part": {"text": ...}}``, ``{"type": "step_finish", "part": {"cost": float,
"tokens": {"input", "output", ...}}}`` and ``{"type": "error", "error": {...}}``.
The cost is the sum of ``part.cost`` over steps. Oracle mode uses the built-in
``plan`` agent (``--agent plan``), whose read-only stance is configuration, not
a sandbox: advisory. The prompt follows ``--``: opencode appends what comes after
it to the message, where a leading ``-`` would otherwise be parsed as flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...llm import Usage
from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, json_lines, number

__all__ = ["OpenCode"]


def _error_text(err: Any) -> str:
    if isinstance(err, dict):
        data: dict[str, Any] = err["data"] if isinstance(err.get("data"), dict) else {}
        return str(data.get("message") or err.get("message") or err.get("name") or err)
    return str(err)


class OpenCode(AgentCLI):
    name = "opencode"
    program = "opencode"
    supports_readonly = True
    readonly_enforced = False

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        argv = [self.program, "run", "--format", "json"]
        if model:
            argv += ["--model", model]
        if read_only:
            argv += ["--agent", "plan"]
        return [*argv, *extra, "--", prompt]

    def parse(self, res: ProcResult) -> AgentOutput:
        texts: list[str] = []
        errors: list[str] = []
        cost = 0.0
        seen_cost = False
        inp = out = 0
        seen_tokens = False
        session = None
        for ev in json_lines(res.stdout):
            part: dict[str, Any] = ev["part"] if isinstance(ev.get("part"), dict) else {}
            session = session or ev.get("sessionID") or part.get("sessionID")
            kind = ev.get("type")
            if kind == "text" and part.get("text"):
                texts.append(str(part["text"]))
            elif kind == "step_finish":
                c = number(part.get("cost"))
                if c is not None:
                    cost += c
                    seen_cost = True
                tok: dict[str, Any] | None = part["tokens"] if isinstance(part.get("tokens"), dict) else None
                if tok:
                    inp += int(tok.get("input") or 0)
                    out += int(tok.get("output") or 0) + int(tok.get("reasoning") or 0)
                    seen_tokens = True
            elif kind == "error":
                errors.append(_error_text(ev.get("error")))
        if not texts and not errors and res.exit_code != 0:
            return self.failure(res)
        failed = bool(errors) or res.exit_code != 0
        return AgentOutput(
            ok=not failed,
            text="\n".join(texts[-3:]),
            cost_dollars=round(cost, 8) if seen_cost else None,
            usage=Usage(inp, out) if seen_tokens else None,
            error="; ".join(errors) or (f"exit {res.exit_code}" if failed else None),
            session_id=session,
        )
