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
from ...llm import parse_model_ref
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
    "agent_maker",
    "agent_oracle_from_config",
    "build_prompt",
    "make_cli",
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
_CLI_OPTIONS = {"permission_mode", "approval_mode", "output", "text_field", "cost_field", "error_field",
                "readonly_argv", "name"}


def make_cli(kind: str, options: Mapping[str, Any] | None = None, argv: list[str] | None = None) -> AgentCLI:
    factory = AGENT_CLIS.get(kind)
    if factory is None:
        raise ConfigError(f"unknown agent CLI {kind!r} (known: {', '.join(sorted(AGENT_CLIS))})")
    opts = {k: v for k, v in (options or {}).items() if k in _CLI_OPTIONS}
    try:
        return factory(argv or [], **opts) if kind == "agent" else factory(**opts)
    except TypeError as e:
        raise ConfigError(f"maker.options for {kind}: {e}") from None


def agent_maker(spec: MakerSpec) -> AgentMaker:
    """``MakerSpec`` -> :class:`AgentMaker`; for named CLIs ``argv`` holds extra arguments."""
    generic = spec.type == "agent"
    cli = make_cli(spec.type, spec.options, spec.argv if generic else None)
    return AgentMaker(cli, model=spec.model, extra_args=[] if generic else spec.argv, env=spec.env,
                      program=spec.options.get("program"))


def agent_oracle_from_config(config: OracleConfig, *, maker: MakerSpec | None = None) -> AgentOracle:
    """``oracle.model = "agent:codex[:MODEL]"`` -> an :class:`AgentOracle` (read-only mode)."""
    ref = parse_model_ref(config.model)
    if ref.provider != "agent" or not ref.agent:
        raise ConfigError(f"oracle.model {config.model!r}: write it as agent:CLI[:MODEL], e.g. agent:codex")
    opts: dict[str, Any] = dict(getattr(config, "options", None) or {})
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
    from ...convergence.oracle import register_oracle

    register_oracle("agent:", lambda cfg: agent_oracle_from_config(cfg))


register_agent_makers()
