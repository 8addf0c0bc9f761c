"""Gemini CLI: ``gemini --prompt=PROMPT --output-format json``.

Output: ``{"response": str, "stats": {"models": {NAME: {"tokens": {"prompt",
"candidates", "total", ...}}}, ...}, "error": {"type", "message", "code"}?}``.
No dollar cost is reported; it is priced per model from the token counts.
Maker mode: ``--approval-mode auto_edit``. Oracle mode: ``--approval-mode plan``,
which the CLI treats as read-only planning but goalkeeper cannot verify it
blocks every write, so it is *advisory*: refused as oracle unless
``allow_advisory_readonly`` (the working-tree check then is the guarantee).
The prompt is attached to its option (``--prompt=TEXT``): yargs would read a
separate value starting with ``-`` as another flag ("Not enough arguments
following: p"), and a positional prompt would start the interactive mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...llm import Usage
from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, last_json_object

__all__ = ["Gemini"]


class Gemini(AgentCLI):
    name = "gemini"
    program = "gemini"
    supports_readonly = True
    readonly_enforced = False

    def __init__(self, approval_mode: str = "auto_edit") -> None:
        self.approval_mode = approval_mode

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        argv = [self.program, f"--prompt={prompt}", "--output-format", "json",
                "--approval-mode", "plan" if read_only else self.approval_mode]
        if model:
            argv += ["-m", model]
        return argv + list(extra)

    def parse(self, res: ProcResult) -> AgentOutput:
        data = last_json_object(res.stdout) or last_json_object(res.stderr)
        if data is None:
            return self.failure(res, None if res.exit_code else "no JSON on stdout")
        err = data.get("error")
        models = (data.get("stats") or {}).get("models") or {}
        inp = out = 0
        name = None
        for model_name, st in models.items() if isinstance(models, dict) else ():
            tok = (st or {}).get("tokens") or {}
            inp += int(tok.get("prompt") or tok.get("input") or 0)
            out += int(tok.get("candidates") or 0) + int(tok.get("thoughts") or 0)
            name = name or str(model_name)
        message = err.get("message") if isinstance(err, dict) else (str(err) if err else None)
        return AgentOutput(
            ok=not err and res.exit_code == 0,
            text=str(data.get("response") or ""),
            usage=Usage(inp, out) if models else None,
            model=name if len(models) == 1 else None,
            error=message or (None if res.exit_code == 0 else f"exit {res.exit_code}"),
        )
