"""What to do next, decided purely from the goal: start (or resume) an iteration, stop, or escalate.

``decide`` does no I/O and reads no clock of its own: the driver passes ``now``
and the instant active time was last accounted, so the same decision can be
replayed in tests or inside a workflow engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ConfigError
from .budget import from_budget, usage_of
from .goal import Budget, EscalationReason, Goal, GoalState, Iteration, Phase

__all__ = [
    "Abandoned",
    "Converged",
    "Decision",
    "Escalate",
    "Finished",
    "Paused",
    "StartIteration",
    "apply_resume",
    "combine_verdict",
    "decide",
]


@dataclass(frozen=True, slots=True)
class StartIteration:
    """Run iteration ``number`` from ``phase`` on (``resumed`` after a crash or pause)."""

    number: int
    phase: Phase = "maker"
    hint: str | None = None
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class Escalate:
    reason: EscalationReason
    detail: str


@dataclass(frozen=True, slots=True)
class Converged:
    iteration: int


@dataclass(frozen=True, slots=True)
class Paused:
    detail: str


@dataclass(frozen=True, slots=True)
class Abandoned:
    detail: str = "abandoned by request"


@dataclass(frozen=True, slots=True)
class Finished:
    """The goal already ended (converged, escalated or failed); nothing to do."""

    state: GoalState


Decision = StartIteration | Escalate | Converged | Paused | Abandoned | Finished


def _tail(items: list[Iteration], n: int) -> list[Iteration] | None:
    return items[-n:] if len(items) >= n else None


def _after(h: Iteration) -> str | None:
    return h.source_after if h.source_after is not None else h.tree_after


def _unrunnable(last: Iteration) -> Escalate | None:
    """A maker or a check that cannot even start will not start next time either: stop paying."""
    if last.maker_spawn_error:
        return Escalate("unrunnable", f"the maker cannot run: {last.maker_spawn_error}; fix the maker command "
                                      "(`goalkeeper doctor GOAL` checks it) and resume")
    if last.iteration == 1 and last.maker_exit_code == 127 and not last.rejected:
        return Escalate("unrunnable", f"the maker exited 127 (command not found) on its first run: "
                                      f"{last.maker_summary or ''}".rstrip())
    dead = [c for c in last.condition_results if c.spawn_error]
    if dead:
        return Escalate("unrunnable", f"stopping condition `{dead[0].command}` cannot run: {dead[0].spawn_error}; "
                                      "fix it with `goalkeeper goal edit` or start a new goal")
    return None


def _reworked(done: list[Iteration], limit: int) -> Escalate | None:
    """A function the maker changed in ``limit`` iterations and that still fails: stop reworking it."""
    last = done[-1]
    if last.rejected or last.oracle_verdict != "not_converged":
        return None
    still = {(fr.get("path"), fr.get("func")) for c in last.condition_results for f in c.failures
             for fr in f.get("frames", []) if fr.get("changedIn")}
    if not still:
        return None
    counts: dict[tuple[object, object], set[int]] = {}
    for h in done:
        for c in h.condition_results:
            for f in c.failures:
                for fr in f.get("frames", []):
                    key = (fr.get("path"), fr.get("func"))
                    if key in still and fr.get("changedIn") == h.iteration:
                        counts.setdefault(key, set()).add(h.iteration)
    worst = max(counts.items(), key=lambda kv: len(kv[1]), default=None)
    if worst is None or len(worst[1]) < limit:
        return None
    (path, func), its = worst
    return Escalate("repeated_failure", f"{path} {func}() was reworked in iterations "
                                        f"{', '.join(map(str, sorted(its)))} and its tests still fail there "
                                        f"(limit {limit}); look at it yourself")


def _guard_escalation(goal: Goal, done: list[Iteration]) -> Escalate | None:
    g = goal.guards
    last = done[-1]
    dead = _unrunnable(last)
    if dead is not None:
        return dead
    if last.oracle_verdict == "void":
        why = last.reasons[0] if last.reasons else "the working tree changed while it was judged; verdict void"
        return Escalate("tampering", f"iteration {last.iteration}: {why}")
    streak = 0
    for h in reversed(done):
        if not h.rejected:
            break
        streak += 1
    if streak >= g.max_rejections:
        return Escalate(
            "tampering",
            f"{streak} consecutive iterations rejected (limit {g.max_rejections}); last: {last.rejected}",
        )
    fails = 0
    for h in reversed(done):
        if not (h.maker_timed_out or (h.maker_exit_code not in (0, None))):
            break
        fails += 1
    if fails >= g.max_maker_failures:
        what = "timed out" if last.maker_timed_out else f"exited {last.maker_exit_code}"
        return Escalate(
            "repeated_failure", f"the maker failed {fails} times in a row (limit {g.max_maker_failures}); last {what}"
        )
    rework = _reworked(done, g.max_rework)
    if rework is not None:
        return rework
    n = g.no_progress_iterations
    tail = _tail([h for h in done if not h.rejected], n)
    if tail and all(_after(h) is not None and _after(h) == h.tree_before for h in tail):
        return Escalate("no_progress", f"the maker left the working tree unchanged for {n} iterations")
    if tail:
        sigs = {tuple(sorted(c.signature for c in h.condition_results if not c.passed)) for h in tail}
        if len(sigs) == 1 and next(iter(sigs)):
            return Escalate("no_progress", f"the same conditions failed the same way for {n} iterations")
    floor = goal.oracle.min_confidence
    unsure = 0
    for h in reversed(done):  # the streak of low-confidence verdicts up to now
        if h.oracle_verdict == "not_converged" and h.confidence is not None and h.confidence < floor:
            unsure += 1
        else:
            break
    if unsure >= g.max_uncertain:
        return Escalate(
            "oracle_uncertain",
            f"oracle confidence {last.confidence:.2f} was below {floor:.2f} for {unsure} iterations "
            f"in a row (limit {g.max_uncertain})",
        )
    return None


def combine_verdict(conditions_passed: Sequence[bool], oracle_converged: bool, confidence: float,
                    min_confidence: float) -> tuple[bool, list[str]]:
    """The iteration's verdict from our own checks and the oracle's word: converged only when
    every condition passed AND the oracle agrees with enough confidence (the oracle can veto,
    never override a failing check). Returns (converged, reasons to add)."""
    all_passed = all(conditions_passed)
    sure = confidence >= min_confidence
    notes: list[str] = []
    if oracle_converged and not all_passed:
        notes.append("the oracle said converged but not every condition passed; not converged")
    elif oracle_converged and not sure:
        notes.append(f"the oracle said converged with confidence {confidence:.2f}, below "
                     f"minConfidence {min_confidence:.2f}; not converged")
    return oracle_converged and all_passed and sure, notes


def decide(
    goal: Goal, now: float, *, since: float | None = None, request: str | None = None
) -> Decision:
    """The next step for ``goal``. ``now - since`` is active time not yet in ``elapsedSeconds``."""
    if goal.state in ("converged", "escalated", "failed"):
        return Finished(goal.state)
    if request == "abandon":
        return Abandoned()
    if request == "pause":
        return Paused("pause requested")
    if goal.state == "paused":
        return Paused("the goal is paused")
    limits = from_budget(goal.budget)
    usage = usage_of(goal, (now - since) if since is not None else 0.0)
    last = goal.history[-1] if goal.history else None
    if last is not None and last.phase != "done":
        if last.phase == "maker":  # the maker will be called again: the budget applies
            err = limits.exceeded(usage)
            if err is not None:
                return Escalate("budget_exhausted", str(err))
            if last.restarts >= goal.guards.max_restarts:
                return Escalate(
                    "repeated_failure",
                    f"the maker of iteration {last.iteration} was interrupted {last.restarts + 1} times "
                    f"(limit {goal.guards.max_restarts} restarts); look at why goalkeeper keeps dying",
                )
        return StartIteration(last.iteration, last.phase, last.hint, resumed=True)
    done = goal.completed()
    if done:
        if done[-1].oracle_verdict == "converged":
            return Converged(done[-1].iteration)
        esc = _guard_escalation(goal, done)
        if esc is not None:
            return esc
    err = limits.exceeded(usage)
    if err is not None:
        return Escalate("budget_exhausted", str(err))
    return StartIteration(len(goal.history) + 1, "maker", goal.last_hint())


def apply_resume(
    goal: Goal,
    *,
    max_iterations: int | None = None,
    max_dollars: float | None = None,
    max_duration: str | None = None,
) -> None:
    """The rules of ``goal resume`` without the store: paused, or budget-exhausted with a raise."""
    raised = any(v is not None for v in (max_iterations, max_dollars, max_duration))
    if goal.state == "escalated":
        reason = goal.escalation.reason if goal.escalation else "unknown"
        if reason != "budget_exhausted" or not raised:
            raise ConfigError(
                f"goal {goal.goal_id} escalated ({reason}); only a budget_exhausted goal can be resumed, "
                "with a raised budget (--max-iterations/--max-dollars/--max-duration); "
                "otherwise start over with `goalkeeper triage act ITEM --goal`"
            )
    elif goal.state not in ("paused", "active"):
        raise ConfigError(f"goal {goal.goal_id} is {goal.state}; it cannot be resumed")
    if raised:
        b = goal.budget.model_dump()
        for key, val in (("max_iterations", max_iterations), ("max_dollars", max_dollars),
                         ("max_duration", max_duration)):
            if val is not None:
                b[key] = val
        goal.budget = Budget.model_validate(b)
    goal.state = "active"
    goal.escalation = None
