"""Claude Code: ``claude -p --output-format json ... -- PROMPT``.

Output: one JSON object ``{"type": "result", "subtype": "success" | "error_max_turns" |
"error_during_execution", "is_error": bool, "result": str, "total_cost_usd": float,
"session_id": str, "num_turns": int, "usage": {"input_tokens", "output_tokens", ...}}``.
Maker mode accepts edits (``--permission-mode acceptEdits``); oracle mode is
enforced read-only: ``--permission-mode plan``, only ``Read,Grep,Glob`` tools,
and every writing tool disallowed. The prompt comes last, after ``--`` (commander
ends options there): an objective starting with ``-`` stays the prompt, and the
variadic ``--disallowedTools`` cannot swallow it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...llm import Usage
from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, last_json_object, number

__all__ = ["ClaudeCode", "READONLY_TOOLS", "WRITE_TOOLS"]

READONLY_TOOLS = "Read,Grep,Glob"
WRITE_TOOLS = "Edit,MultiEdit,Write,NotebookEdit,Bash"


class ClaudeCode(AgentCLI):
    name = "claude-code"
    program = "claude"
    supports_readonly = True
    readonly_enforced = True

    def __init__(self, permission_mode: str = "acceptEdits") -> None:
        self.permission_mode = permission_mode

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        argv = [self.program, "-p", "--output-format", "json"]
        if model:
            argv += ["--model", model]
        if read_only:
            argv += ["--permission-mode", "plan", "--tools", READONLY_TOOLS, "--disallowedTools", WRITE_TOOLS]
        else:
            argv += ["--permission-mode", self.permission_mode]
        return [*argv, *extra, "--", prompt]

    def parse(self, res: ProcResult) -> AgentOutput:
        data = last_json_object(res.stdout)
        if data is None:
            return self.failure(res, None if res.exit_code else "no JSON result on stdout")
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        tokens = None
        if usage:
            tokens = Usage(int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0))
        is_error = bool(data.get("is_error")) or str(data.get("subtype", "success")) != "success"
        text = str(data.get("result") or "")
        return AgentOutput(
            ok=not is_error and res.exit_code == 0,
            text=text,
            cost_dollars=number(data.get("total_cost_usd", data.get("cost_usd"))),
            usage=tokens,
            error=(f"{data.get('subtype', 'error')}: {text}".strip(": ") if is_error else
                   (None if res.exit_code == 0 else f"exit {res.exit_code}")),
            session_id=data.get("session_id"),
            extra={"num_turns": data.get("num_turns")},
        )
