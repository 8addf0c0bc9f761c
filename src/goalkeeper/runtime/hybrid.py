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

from ..model.conditions import format_value
from ..model.spec import Spec

if TYPE_CHECKING:
    from ..llm import Message, Provider

__all__ = ["DONE", "ESCALATE", "LLMProposer", "Proposal", "ProposalOutcome", "claim_diff", "check_proposal"]

DONE, ESCALATE = "DONE", "ESCALATE"


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
    """Why a proposal may not run (empty list = it may). Pure.

    ``facts`` must hold fresh observations of the action's preconditions.
    """
    name = proposal.action
    if name in (DONE, ESCALATE):
        return []
    if name not in spec.actions:
        return [f"unknown action {name!r}; the actions are: {', '.join(spec.actions)}"]
    problems: list[str] = []
    if name in blocked:
        problems.append(f"{name} is blocked: it failed until the strike limit and nothing observed has changed")
    action = spec.actions[name]
    for c in action.pre_conditions:
        if not c.holds(facts.get(c.fact)):
            kind = "destructive action refused: " if action.destructive else ""
            problems.append(f"{kind}precondition {c} does not hold (observed {format_value(facts.get(c.fact))})")
    contract = dict(action.effect_values)
    claimed = dict(proposal.expects)
    # Types count: a claim of 1 for a true/false fact is not the contract's true.
    if claimed != contract or any(_kind(claimed[k]) != _kind(v) for k, v in contract.items()):
        problems.append(
            f"false claim: {name} makes {json.dumps(contract, sort_keys=True)}, "
            f"not {json.dumps(claimed, sort_keys=True, default=str)}"
        )
    return problems


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    return "number" if isinstance(v, int | float) else type(v).__name__


def claim_diff(claimed: Mapping[str, Any], observed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Claimed-versus-observed differences after an action ran."""
    return [
        {"fact": f, "claimed": v, "observed": observed.get(f)}
        for f, v in claimed.items()
        if f in observed and observed.get(f) != v
    ]


@dataclass
class LLMProposer:
    """Asks a model for the next action with the hybrid system prompt."""

    spec: Spec
    provider: Provider
    model: str
    reasks: int = 2
    system: str = ""
    feedback: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.system:
            from ..build.prompts import system_prompt

            self.system = system_prompt(self.spec, proposer=True)

    def propose(self, facts: Mapping[str, Any], *, tick: int, blocked: Sequence[str]) -> ProposalOutcome:
        from ..llm import structured

        user = {
            "tick": tick,
            "observed_state": dict(facts),
            "blocked_actions": list(blocked),
            "feedback": self.feedback[-3:],
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
