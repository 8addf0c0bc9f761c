"""OpenAI Codex CLI: ``codex exec --json ... -- PROMPT``.

Output: JSON lines, e.g. ``{"type": "thread.started", "thread_id": ...}``,
``{"type": "item.completed", "item": {"type": "agent_message", "text": ...}}``,
``{"type": "turn.completed", "usage": {"input_tokens", "cached_input_tokens",
"output_tokens"}}``, ``{"type": "turn.failed", "error": {"message": ...}}`` and
``{"type": "error", "message": ...}``. Codex reports tokens, not dollars: the
cost comes from the price table when the model is known. Maker mode runs with
``--sandbox workspace-write``; oracle mode with ``--sandbox read-only`` (enforced).
The prompt follows ``--`` (clap): one starting with ``-`` or equal to ``resume`` (a
subcommand) stays the prompt. A prompt of exactly ``-`` would make codex read its
stdin, so it is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import ConfigError
from ...llm import Usage
from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, json_lines

__all__ = ["Codex"]


class Codex(AgentCLI):
    name = "codex"
    program = "codex"
    supports_readonly = True
    readonly_enforced = True

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        if prompt.strip() == "-":
            raise ConfigError("an objective of '-' would make codex read its prompt from stdin; "
                              "write the objective out")
        argv = [self.program, "exec", "--json", "--sandbox", "read-only" if read_only else "workspace-write"]
        if model:
            argv += ["--model", model]
        return [*argv, *extra, "--", prompt]

    def parse(self, res: ProcResult) -> AgentOutput:
        messages: list[str] = []
        errors: list[str] = []
        inp = out = 0
        seen_usage = False
        thread = None
        for ev in json_lines(res.stdout):
            kind = ev.get("type")
            if kind == "thread.started":
                thread = ev.get("thread_id")
            elif kind == "item.completed" and isinstance(ev.get("item"), dict):
                item = ev["item"]
                if item.get("type") in ("agent_message", "assistant_message") and item.get("text"):
                    messages.append(str(item["text"]))
                elif item.get("type") == "error" and item.get("message"):
                    errors.append(str(item["message"]))
            elif kind == "turn.completed" and isinstance(ev.get("usage"), dict):
                u = ev["usage"]
                inp += int(u.get("input_tokens") or 0)
                out += int(u.get("output_tokens") or 0)
                seen_usage = True
            elif kind == "turn.failed":
                err = ev.get("error")
                errors.append(str(err.get("message") if isinstance(err, dict) else err))
            elif kind == "error":
                errors.append(str(ev.get("message") or ev))
        if not messages and not errors and res.exit_code != 0:
            return self.failure(res)
        failed = bool(errors) and not messages or res.exit_code != 0
        return AgentOutput(
            ok=not failed,
            text=messages[-1] if messages else "",
            usage=Usage(inp, out) if seen_usage else None,
            error="; ".join(errors) or (f"exit {res.exit_code}" if failed else None),
            session_id=thread,
        )
