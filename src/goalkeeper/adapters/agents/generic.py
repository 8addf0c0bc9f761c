"""Any other agent CLI: an argv template plus where to find the answer and the cost.

``argv`` may hold ``{prompt}`` and ``{model}`` as whole items. ``output`` is
``text`` (summary = last lines), ``json`` (one object) or ``jsonl`` (the last
object with ``text_field``). ``text_field`` and ``cost_field`` are dotted paths
(``result``, ``usage.cost``). ``readonly_argv`` (optional) is used as the oracle.
An unknown CLI may read a prompt starting with ``-`` as a flag: such a prompt is
refused unless the template puts ``--`` right before ``{prompt}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ...errors import ConfigError
from .._proc import ProcResult
from ._base import AgentCLI, AgentOutput, json_lines, last_json_object, last_lines, number

__all__ = ["GenericCLI"]


def _dig(obj: Any, path: str) -> Any:
    for key in path.split("."):
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


class GenericCLI(AgentCLI):
    name = "agent"

    def __init__(
        self,
        argv: Sequence[str],
        *,
        output: Literal["text", "json", "jsonl"] = "text",
        text_field: str = "result",
        cost_field: str | None = None,
        error_field: str | None = "error",
        readonly_argv: Sequence[str] | None = None,
        name: str = "agent",
    ) -> None:
        if not argv or "{prompt}" not in argv:
            raise ConfigError("a generic agent needs an argv with '{prompt}' as a whole item, e.g. "
                              "['my-agent', '--json', '{prompt}']")
        if output not in ("text", "json", "jsonl"):
            raise ConfigError(f"output {output!r}: use text, json or jsonl")
        self.template = list(argv)
        self.readonly_template = list(readonly_argv) if readonly_argv else None
        self.program = self.template[0]
        self.output = output
        self.text_field, self.cost_field, self.error_field = text_field, cost_field, error_field
        self.name = name
        self.supports_readonly = self.readonly_enforced = self.readonly_template is not None

    def argv(self, prompt: str, *, model: str | None, read_only: bool, extra: Sequence[str] = ()) -> list[str]:
        tpl = self.readonly_template if read_only and self.readonly_template else self.template
        if prompt.startswith("-"):
            at = tpl.index("{prompt}") if "{prompt}" in tpl else -1
            if at < 1 or tpl[at - 1] != "--":
                raise ConfigError(
                    f"the objective starts with '-', which {self.program} could read as a flag; put '--' "
                    "before '{prompt}' in the agent's argv (if the CLI accepts it) or reword the objective")
        values = {"{prompt}": prompt, "{model}": model or ""}
        return [values.get(a, a) for a in tpl] + list(extra)

    def parse(self, res: ProcResult) -> AgentOutput:
        if self.output == "text":
            if res.exit_code != 0:
                return self.failure(res)
            return AgentOutput(True, last_lines(res.stdout, 8))
        if self.output == "json":
            data = last_json_object(res.stdout)
        else:
            events = list(json_lines(res.stdout))
            data = events[-1] if events else None
        if data is None:
            return self.failure(res, None if res.exit_code else "no JSON on stdout")
        err = _dig(data, self.error_field) if self.error_field else None
        ok = not err and res.exit_code == 0
        return AgentOutput(
            ok=ok,
            text=str(_dig(data, self.text_field) or ""),
            cost_dollars=number(_dig(data, self.cost_field)) if self.cost_field else None,
            error=None if ok else (str(err) if err else f"exit {res.exit_code}"),
        )
