"""Coding-agent CLIs as makers (and, read-only, as oracles): one module per CLI.

Maker types (``maker.type``): ``claude-code``, ``codex``, ``gemini``, ``opencode``,
``aider``, ``goose`` and ``agent`` (generic: ``maker.argv`` is the template with
``{prompt}``). ``maker.model`` selects the model, ``maker.argv`` adds extra CLI
arguments, ``maker.options`` holds ``program`` (path to the executable) and
per-CLI settings (``permission_mode``, ``approval_mode``; generic: ``output``,
``text_field``, ``cost_field``, ``readonly_argv``). Oracles are named
``agent:CLI[:MODEL]``, e.g. ``agent:codex:o4-mini``. See docs/models.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...errors import ConfigError
from ...llm import ORACLE_OPTIONS, Option, coerce_options, parse_model_ref
from ..makers import Maker, register_maker
from ._base import AgentCLI, AgentMaker, AgentOutput, build_prompt
from .aider import Aider
from .claude import ClaudeCode
from .codex import Codex
from .gemini import Gemini
from .generic import GenericCLI
from .goose import Goose
from .opencode import OpenCode
from .oracle import AgentOracle

if TYPE_CHECKING:
    from ...convergence.goal import MakerSpec, OracleConfig

__all__ = [
    "AGENT_CLIS",
    "AgentCLI",
    "AgentMaker",
    "AgentOracle",
    "AgentOutput",
    "Aider",
    "ClaudeCode",
    "Codex",
    "Gemini",
    "GenericCLI",
    "Goose",
    "OpenCode",
    "AGENT_OPTIONS",
    "agent_maker",
    "agent_oracle_from_config",
    "build_prompt",
    "make_cli",
    "oracle_option_values",
    "register_agent_makers",
]

AGENT_CLIS: dict[str, Callable[..., AgentCLI]] = {
    "claude-code": ClaudeCode,
    "codex": Codex,
    "gemini": Gemini,
    "opencode": OpenCode,
    "aider": Aider,
    "goose": Goose,
    "agent": GenericCLI,
}
# maker.options / oracle.options of an agent CLI, with their types (text from the command
# line is converted; "allow_advisory_readonly=false" is False, not a true-ish string).
AGENT_OPTIONS: dict[str, Option] = {
    "program": Option(str, help="path to the CLI executable"),
    "permission_mode": Option(str, help="claude-code maker mode, e.g. acceptEdits"),
    "approval_mode": Option(str, help="gemini maker mode, e.g. auto_edit"),
    "output": Option(("text", "json", "jsonl"), help="generic agent: how to read its answer"),
    "text_field": Option(str),
    "cost_field": Option(str),
    "error_field": Option(str),
    "readonly_argv": Option(list, help="generic agent: argv template for the oracle"),
    "name": Option(str),
    "argv": Option(list, help="oracle: argv template (generic agent) or extra arguments"),
    "allow_advisory_readonly": Option(bool, help="oracle: rely on the working-tree check alone"),
}
_CLI_OPTIONS = {"permission_mode", "approval_mode", "output", "text_field", "cost_field", "error_field",
                "readonly_argv", "name"}


def _typed(options: Mapping[str, Any] | None, where: str) -> dict[str, Any]:
    return coerce_options(None, options or {}, table=AGENT_OPTIONS, where=where, stored=True)


def oracle_option_values(oracle_model: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """``--oracle-option`` values typed for the oracle ``oracle_model`` names (an LLM provider's
    declared options plus the LLM oracle's own, or an agent CLI's), or ``ConfigError``."""
    ref = parse_model_ref(oracle_model)
    if ref.provider == "agent":
        return _typed(values, "--oracle-option")
    if ref.provider is not None:
        return coerce_options(ref.provider, values, extra=ORACLE_OPTIONS, where="--oracle-option", stored=True)
    if values:
        raise ConfigError(f"--oracle-option: the {oracle_model} oracle takes no options")
    return {}


def make_cli(kind: str, options: Mapping[str, Any] | None = None, argv: list[str] | None = None) -> AgentCLI:
    factory = AGENT_CLIS.get(kind)
    if factory is None:
        raise ConfigError(f"unknown agent CLI {kind!r} (known: {', '.join(sorted(AGENT_CLIS))})")
    opts = {k: v for k, v in _typed(options, f"options for {kind}").items() if k in _CLI_OPTIONS}
    try:
        return factory(argv or [], **opts) if kind == "agent" else factory(**opts)
    except TypeError as e:
        raise ConfigError(f"maker.options for {kind}: {e}") from None


def agent_maker(spec: MakerSpec) -> AgentMaker:
    """``MakerSpec`` -> :class:`AgentMaker`; for named CLIs ``argv`` holds extra arguments."""
    generic = spec.type == "agent"
    options = _typed(spec.options, "maker.options")
    cli = make_cli(spec.type, options, spec.argv if generic else None)
    return AgentMaker(cli, model=spec.model, extra_args=[] if generic else spec.argv, env=spec.env,
                      program=options.get("program"))


def agent_oracle_from_config(config: OracleConfig, *, maker: MakerSpec | None = None) -> AgentOracle:
    """``oracle.model = "agent:codex[:MODEL]"`` -> an :class:`AgentOracle` (read-only mode)."""
    ref = parse_model_ref(config.model)
    if ref.provider != "agent" or not ref.agent:
        raise ConfigError(f"oracle.model {config.model!r}: write it as agent:CLI[:MODEL], e.g. agent:codex")
    opts: dict[str, Any] = _typed(getattr(config, "options", None), "oracle.options")
    cli = make_cli(ref.agent, opts, opts.get("argv"))
    agent = AgentMaker(cli, model=ref.model, program=opts.get("program"))
    return AgentOracle(agent, maker_model=maker.model if maker else None, maker_type=maker.type if maker else None,
                       allow_advisory_readonly=bool(opts.get("allow_advisory_readonly", False)))


def register_agent_makers() -> None:
    """Make every agent CLI a maker type; idempotent (the registry is a dict)."""

    def factory(spec: MakerSpec) -> Maker:
        return agent_maker(spec)

    for kind in AGENT_CLIS:
        register_maker(kind, factory)
    from ...convergence.contracts import register_oracle

    register_oracle("agent:", lambda cfg: agent_oracle_from_config(cfg))


register_agent_makers()
