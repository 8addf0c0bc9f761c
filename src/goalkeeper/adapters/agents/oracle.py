"""A coding-agent CLI as the oracle, run in its read-only mode; it may only veto.

The CLI gets the same evidence as the LLM oracle (objective, conditions with
output, the iteration diff, the maker's summary, recent iterations), may look
around with its own read-only tools, and must end with the verdict JSON. The
loop still checks the tree is byte-identical afterwards; a CLI whose read-only
mode is advisory is refused unless ``allow_advisory_readonly`` is set.
"""

from __future__ import annotations

from pydantic import ValidationError

from ...convergence.contracts import OracleRequest, OracleVerdict
from ...convergence.llm_oracle import (
    OracleStep,
    build_context,
    uncertain_verdict,
    veto_only_verdict,
)
from ...convergence.oracle_tools import iteration_diff
from ...errors import ConfigError
from ...llm import extract_json, same_model
from ._base import AgentMaker, require_readonly

__all__ = ["AGENT_ORACLE_PROMPT", "AgentOracle"]

AGENT_ORACLE_PROMPT = """You are the oracle of a coding loop: a strict, read-only judge. Do NOT modify
any file. Another agent (the maker) edited this workspace to reach the objective below;
our own stopping conditions ran afterwards and their results are facts. Inspect the code
if needed, then decide whether the objective is truly met (not faked: no skipped or
weakened tests, no hard-coded results). "converged": true is only possible when every
condition passed. End your answer with exactly one JSON object:
{"converged": true|false, "reasons": ["..."], "nextHint": "next step for the maker or null", "confidence": 0.0-1.0}
"""


class AgentOracle:
    """Runs ``agent``'s CLI read-only with the evidence and reads the verdict from its answer."""

    def __init__(self, agent: AgentMaker, *, maker_model: str | None = None, maker_type: str | None = None,
                 allow_advisory_readonly: bool = False, timeout: float | None = 900.0) -> None:
        require_readonly(agent.cli, allow_advisory_readonly)
        if maker_type == agent.cli.name and (agent.model is None or same_model(agent.model, maker_model)):
            raise ConfigError(
                f"the oracle would be the maker ({agent.cli.name} with model {agent.model or 'default'}); "
                "pick another CLI or another model for the oracle"
            )
        if agent.model and same_model(agent.model, maker_model):
            raise ConfigError(f"the oracle model {agent.model!r} is also the maker's model; the judge must differ")
        self.agent = agent
        self.timeout = timeout
        self.name = f"agent:{agent.cli.name}" + (f":{agent.model}" if agent.model else "")

    def judge(self, request: OracleRequest) -> OracleVerdict:
        diff = iteration_diff(request.workspace, request.goal_id, request.iteration, runner=self.agent.runner)
        prompt = AGENT_ORACLE_PROMPT + "\n" + build_context(request, diff)
        _res, out = self.agent.run(prompt, request.workspace, self.timeout, read_only=True)
        cost, known = self.agent.cost_of(out)
        if not out.ok:
            return uncertain_verdict(request, f"{self.name} failed: {out.error}", cost, known, self.name)
        try:
            step = OracleStep.model_validate(extract_json(out.text))
        except (ValueError, ValidationError) as e:
            return uncertain_verdict(request, f"no valid verdict JSON in the answer: {str(e)[:300]}", cost, known,
                                     self.name)
        if step.tool is not None:
            return uncertain_verdict(request, "the answer was a tool call, not a verdict", cost, known, self.name)
        return veto_only_verdict(request, step, cost, known, self.name)
