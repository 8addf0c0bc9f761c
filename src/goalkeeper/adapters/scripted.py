"""Test doubles shipped with the package: a scripted maker and a scripted oracle.

Use them to test a goal's conditions and guards without a real coding agent:
each step is a function that edits the workspace (or a plain summary string).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..convergence.contracts import MakerRequest, MakerResult, OracleRequest, OracleVerdict

__all__ = ["ScriptedMaker", "ScriptedOracle"]

Step = Callable[[MakerRequest], MakerResult | str | None] | str


class ScriptedMaker:
    """Plays ``steps`` in order, one per iteration; the last one repeats when they run out."""

    name = "scripted"

    def __init__(self, steps: Sequence[Step], *, cost_dollars: float = 0.0) -> None:
        if not steps:
            raise ValueError("ScriptedMaker needs at least one step")
        self.steps = list(steps)
        self.cost_dollars = cost_dollars
        self.calls: list[MakerRequest] = []

    def make(self, request: MakerRequest) -> MakerResult:
        step = self.steps[min(len(self.calls), len(self.steps) - 1)]
        self.calls.append(request)
        out = step if isinstance(step, str) else step(request)
        if isinstance(out, MakerResult):
            return out
        return MakerResult(summary=out or f"scripted step {len(self.calls)}", cost_dollars=self.cost_dollars)


class ScriptedOracle:
    """Returns fixed verdicts, or runs ``act`` first (e.g. to simulate an oracle that writes)."""

    def __init__(
        self,
        verdicts: Sequence[OracleVerdict] | None = None,
        *,
        act: Callable[[OracleRequest], None] | None = None,
        name: str = "scripted-oracle",
    ) -> None:
        self.verdicts = list(verdicts or [])
        self.act = act
        self.name = name
        self.calls: list[OracleRequest] = []

    def judge(self, request: OracleRequest) -> OracleVerdict:
        self.calls.append(request)
        if self.act is not None:
            self.act(request)
        if self.verdicts:
            return self.verdicts[min(len(self.calls), len(self.verdicts)) - 1]
        ok = all(c.passed for c in request.condition_results)
        return OracleVerdict(ok, ["scripted"], None if ok else "keep going", 1.0, list(request.condition_results))
