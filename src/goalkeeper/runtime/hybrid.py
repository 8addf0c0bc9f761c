"""Hybrid runtime: an LLM proposes ONE action per tick, code decides whether it runs.

The model only ever names an action (and the mutation it claims); it never
supplies a command line. Code checks that the action exists, is not blocked,
that its preconditions hold on freshly observed values and that the claim
matches the contract, before anything executes. A refusal or a false claim is
a strike, exactly like a failed action.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from ..model.spec import Spec
from .machine import DONE, ESCALATE, claim_diff
from .machine import check_proposal as machine_check

if TYPE_CHECKING:
    from ..llm import Message, Provider

__all__ = ["DONE", "ESCALATE", "LLMProposer", "Proposal", "ProposalOutcome", "claim_diff", "check_proposal"]


class Proposal(BaseModel):
    """The worker's answer (``response.schema.json`` of ``goalkeeper build --target hybrid``)."""

    model_config = ConfigDict(extra="forbid")

    action: str
    expects: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""


@dataclass
class ProposalOutcome:
    proposal: Proposal | None
    cost_dollars: float = 0.0
    cost_known: bool = True
    error: str | None = None  # set when the model gave no usable answer


def check_proposal(
    spec: Spec, proposal: Proposal, facts: Mapping[str, Any], blocked: Sequence[str]
) -> list[str]:
    """Why a proposal may not run (empty list = it may). Pure; the machine's own check.

    ``facts`` must hold fresh observations of the action's preconditions.
    """
    from .decide import SpecModel

    return machine_check(SpecModel(spec), proposal.action, proposal.expects, facts, blocked)


@dataclass
class LLMProposer:
    """Asks a model for the next action. ``system`` is the hybrid system prompt; the spec
    builder writes it (``goalkeeper.build.prompts.system_prompt(spec, proposer=True)``), and
    the caller passes it in, so the runtime never reaches up into the builder."""

    spec: Spec
    provider: Provider
    model: str
    system: str
    reasks: int = 2
    feedback: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.system.strip():
            from ..errors import ConfigError

            raise ConfigError("LLMProposer needs its system prompt: "
                              "system=goalkeeper.build.prompts.system_prompt(spec, proposer=True)")

    def propose(self, facts: Mapping[str, Any], *, tick: int, blocked: Sequence[str],
                feedback: Sequence[str] | None = None) -> ProposalOutcome:
        """``feedback``: the notes the model should hear (default: the last three told)."""
        from ..llm import structured

        user = {
            "tick": tick,
            "observed_state": dict(facts),
            "blocked_actions": list(blocked),
            "feedback": list(feedback) if feedback is not None else self.feedback[-3:],
        }
        messages: list[Message] = [
            {"role": "system", "content": self.system},
            {"role": "user", "content": json.dumps(user, default=str)},
        ]
        res = structured(self.provider, self.model, messages, Proposal, reasks=self.reasks)
        cost_known = res.cost_known
        if res.value is None:
            why = "; ".join(res.errors[-1:]) or "no valid answer"
            return ProposalOutcome(None, res.cost_dollars, cost_known, f"the model gave no valid proposal: {why}")
        return ProposalOutcome(res.value, res.cost_dollars, cost_known)

    def tell(self, note: str) -> None:
        """Feedback for the next prompt (refusals, failures), so the model can correct itself."""
        self.feedback.append(note)
