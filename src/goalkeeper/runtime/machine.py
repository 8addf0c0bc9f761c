"""The tick loop of a GOAP run, once: a sans-I/O state machine (h11's shape).

The machine never runs a process, reads a file, asks a clock or calls a model.
A driver asks it what to do next and feeds back what happened::

    machine = RunMachine(model, ledger, options, clock)
    instruction = machine.send(None)
    while not isinstance(instruction, Done):
        instruction = machine.send(carry_out(instruction))

=============  ===========================================================  ============
instruction    the driver                                                   feeds back
=============  ===========================================================  ============
Commit         appends ``event`` to the log, THEN saves ``machine.ledger``  None
Observe        reads ``facts`` from the world (``fresh``: a re-check)        Observed
Act            runs the action's command                                    Acted
Confirm        asks a human to approve a destructive action                 True, False, or
                                                                            None (nobody to ask)
Propose        asks the model for the next action (hybrid runtime)          Proposed
Escalate       writes the report, files the triage item                     Filed
Done           stops: the run reached its goal or escalated                 --
=============  ===========================================================  ============

Everything a run decides is decided here: the fresh goal check before
``reached`` (never on a belief), the tick cap, planning around blocked actions,
the destructive-action re-check and approval, strikes, the replan from fresh
observations, refusals (each costs a tick and a strike), proposals in the
hybrid runtime, and the escalation context. The local driver, the Temporal
workflow and the standalone runner only carry out the instructions, which is
why they behave alike. The spec is seen through ``Model``, so the runner can
bring its own planner.

The vocabulary (instructions, results, ``Model``) is in ``instructions.py``.
Standard library only: the build copies both files into the standalone runner.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any, Literal

from .instructions import (
    DONE,
    ESCALATE,
    INTERRUPTED,
    Act,
    Acted,
    ActionInfo,
    Commit,
    Confirm,
    Done,
    Escalate,
    FactInfo,
    Filed,
    Instruction,
    MachineError,
    Model,
    Observe,
    Observed,
    Options,
    PlanView,
    Propose,
    Proposed,
    Resume,
)
from .ledger import Ledger, apply, blocked_now, corrections

__all__ = [
    "DONE", "ESCALATE", "Act", "Acted", "ActionInfo", "Commit", "Confirm", "Done", "Escalate",
    "FactInfo", "Filed", "Instruction", "MachineError", "Model", "Observe", "Observed", "Options",
    "PlanView", "Propose", "Proposed", "Resume", "RunMachine", "check_proposal", "claim_diff", "suggestions",
]

Step = Generator[Instruction, object, Any]


def _expect(result: object, kind: type[Any]) -> Any:
    if not isinstance(result, kind):
        raise MachineError(f"expected {kind.__name__}, got {type(result).__name__}")
    return result


class RunMachine:
    """One run's decisions. Feed ``send`` the answer to the instruction it last returned."""

    def __init__(self, model: Model, ledger: Ledger, options: Options | None = None,
                 clock: Callable[[], str] = lambda: "") -> None:
        self.model, self.ledger, self.options, self.clock = model, ledger, options or Options(), clock
        self.feedback: list[str] = []  # hybrid: refusals and failures the model hears about
        self._bad_answers = 0
        self._gen = self._run()
        self._primed = self._done = False

    def send(self, result: object = None) -> Instruction:
        if self._done:
            raise MachineError("the run is over; there is nothing more to do")
        instruction = self._gen.send(result) if self._primed else next(self._gen)
        self._primed = True
        self._done = isinstance(instruction, Done)
        return instruction

    # -- plumbing -------------------------------------------------------------------
    def _commit(self, name: str, **data: Any) -> Commit:
        event = {"seq": self.ledger.seq + 1, "event": name, **data}
        apply(self.ledger, event)
        return Commit(event)

    def _routine(self) -> list[str]:
        return [f for f, d in self.model.facts.items() if not d.diagnostic]

    def _observe(self, names: Sequence[str], *, fresh: bool = False,
                 initial: Mapping[str, Any] | None = None, always: bool = False) -> Step:
        names = tuple(names)
        if not names and not always:
            return {}
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        if names:
            got = _expect((yield Observe(names, fresh)), Observed)
            values = {f: got.values.get(f) for f in names}
            errors = {f: str(got.errors.get(f) or "no value") for f in names if values[f] is None}
        data: dict[str, Any] = {"facts": values, "unknown": errors}
        if fresh:
            data["fresh"] = True
        if initial:
            data["initial"] = dict(initial)
        yield self._commit("facts.observed", **data)
        return values

    # -- the loop -------------------------------------------------------------------
    def _run(self) -> Step:
        L, M, opts = self.ledger, self.model, self.options
        yield from self._open()
        while True:
            blocked = blocked_now(L.blocked, L.facts, L.spec_sha256)
            if M.goal_holds(L.facts):
                fresh = yield from self._observe(M.goal_facts, fresh=True)
                if M.goal_holds(fresh):  # done only on values observed just now
                    yield self._commit("run.reached", tick=L.tick)
                    yield Done("reached")
                    return
                continue  # a belief said done; the world did not
            if L.max_ticks is not None and L.tick >= L.max_ticks:
                yield from self._escalate("tick_cap", f"tick cap reached: {L.tick} of max_ticks "
                                          f"{L.max_ticks} used and the goal does not hold")
                return
            found = M.plan(L.facts, ())
            if not found.found:
                yield from self._escalate("unreachable", found.reason + _closing(found.gaps), found, blocked)
                return
            if found.plan[0] in blocked:
                # The best plan starts with an action that failed until the strike limit
                # with nothing changed since: look for a way around it instead.
                alt = M.plan(L.facts, blocked)
                if not alt.found:
                    yield from self._escalate(
                        "no_admissible_action",
                        f"every plan needs {', '.join(blocked)} now, which already failed until the strike "
                        "limit and nothing observed has changed since; it will not be retried silently",
                        found, blocked)
                    return
                found = alt
            if list(found.plan) != L.plan:
                yield self._commit("plan.made", plan=list(found.plan), cost=found.cost,
                                   expanded=found.expanded, excluded=blocked)
            name: str = found.plan[0]
            expects: dict[str, Any] | None = None
            if opts.hybrid:
                proposal = yield from self._propose(blocked)
                if proposal == "stop":
                    return
                if proposal is None:
                    continue  # refused: a tick and a strike
                name, expects = proposal
            if M.actions[name].destructive:
                verdict = yield from self._check_destructive(name)
                if verdict == "stop":
                    return
                if verdict == "refused":
                    continue
            ok = yield from self._act(name)
            if expects is not None:
                yield self._commit("claims.checked", tick=L.tick, action=name, claimed=dict(expects),
                                   differences=claim_diff(expects, L.facts))
                if not ok:
                    self.feedback.append(f"tick {L.tick}: {name} failed: {L.history[-1]['reason']}")

    def _open(self) -> Step:
        L, M, r = self.ledger, self.model, self.options.resume
        if r is None:
            yield self._commit("run.started", **{"spec": L.spec_path, "maxTicks": L.max_ticks,
                                                 **self.options.opening})
        else:
            yield self._commit("run.resumed", spec=r.spec_path, tick=L.tick, maxTicks=r.max_ticks,
                               maxDollars=r.max_dollars, dropped=list(r.dropped))
            if r.spec_sha256 != L.spec_sha256 or r.spec_path != L.spec_path:
                yield self._commit("spec.changed", sha256=r.spec_sha256, spec=r.spec_path)
            if L.pending is not None:
                p = L.pending
                yield self._commit("action.interrupted", tick=p["tick"], action=p["action"], reason=INTERRUPTED,
                                   started=p["started"], ended=self.clock(), strikes=L.strikes)
        todo, initial = self._routine(), {}
        for f, d in M.facts.items():  # diagnostic facts are beliefs: initial values or observed once
            if d.diagnostic and f not in L.facts:
                if d.initial is not None:
                    initial[f] = d.initial
                else:
                    todo.append(f)
        yield from self._observe(todo, initial=initial, always=True)

    def _check_destructive(self, name: str) -> Step:
        """Re-observe the preconditions fresh; refuse on any failure; ask when confirm is set."""
        M = self.model
        fresh = yield from self._observe(M.actions[name].pre_facts, fresh=True)
        failed = [text for _, text in M.unmet(name, fresh)]
        if failed:
            yield from self._refuse(name, "destructive action refused: precondition no longer holds: "
                                    + ", ".join(failed))
            return "refused"
        if M.actions[name].confirm and not self.options.yes:
            answer = yield Confirm(name)
            if answer is None:
                yield from self._escalate("approval_required", f"destructive action {name} needs approval "
                                          "(confirm: true); re-run with --yes")
                return "stop"
            if not _expect(answer, bool):
                yield from self._escalate("approval_required",
                                          f"approval for destructive action {name} was declined")
                return "stop"
        return "go"

    def _act(self, name: str) -> Step:
        L, M = self.ledger, self.model
        tick, started = L.tick + 1, self.clock()
        yield self._commit("tick.started", tick=tick, action=name, started=started)
        acted = _expect((yield Act(name, tick)), Acted)
        if acted.interrupted:
            yield self._commit("action.interrupted", tick=tick, action=name, reason=acted.text or INTERRUPTED,
                               started=started, ended=self.clock(), strikes=L.strikes)
            yield from self._observe(self._routine())
            return False
        after = yield from self._observe(self._routine())
        info = M.actions[name]
        reason, missing = acted.text, []
        if acted.ok:
            missing = [f"{f} (expected {M.fmt(v)}, observed {M.fmt(after.get(f))})"
                       for f, v in info.effects
                       if not M.facts[f].diagnostic and not M.effect_holds(f, v, after.get(f))]
            if missing:  # a zero exit is not enough: the observable effects must hold
                reason = "exited 0 but its effects did not happen: " + "; ".join(missing)
        ok = acted.ok and not missing
        # Effects on diagnostic facts cannot be re-observed each tick: believe them on success.
        believed = {f: v for f, v in info.effects if M.facts[f].diagnostic} if acted.ok else {}
        yield self._commit("action.finished", tick=tick, action=name, outcome="ok" if ok else "failed",
                           reason=reason, missingEffects=missing, started=started, ended=self.clock(),
                           seconds=acted.seconds, log=acted.log, strikes=0 if ok else L.strikes + 1,
                           limit=M.strikes, believed=believed)
        if not ok and L.strikes >= M.strikes:
            yield from self._replan()
        return ok

    def _refuse(self, name: str, reason: str) -> Step:
        L, now = self.ledger, self.clock()
        yield self._commit("action.refused", tick=L.tick + 1, action=name, reason=reason, started=now,
                           ended=now, strikes=L.strikes + 1, limit=self.model.strikes)
        if L.strikes >= self.model.strikes:
            yield from self._replan()

    def _replan(self) -> Step:
        """The strike limit fired: observe everything, correct beliefs, block what failed."""
        L, M = self.ledger, self.model
        believed = dict(L.facts)
        observed = yield from self._observe(list(M.facts))
        failed = sorted(set(L.streak) & set(M.actions))
        yield self._commit("run.replanned", tick=L.tick, failed=failed,
                           corrections=corrections(believed, observed), blocked=failed)

    def _propose(self, blocked: list[str]) -> Step:
        """Hybrid: ask the model, then validate in code. None = refused; "stop" = escalated."""
        L, M = self.ledger, self.model
        got = _expect((yield Propose(dict(L.facts), L.tick, tuple(blocked), tuple(self.feedback[-3:]))),
                      Proposed)
        cost = {"costDollars": got.cost_dollars, "costKnown": got.cost_known}
        if got.action is None:
            yield self._commit("proposal.failed", tick=L.tick, error=got.error or "no valid proposal", **cost)
        else:
            yield self._commit("proposal.received", tick=L.tick, action=got.action, expects=dict(got.expects),
                               reason=got.reason, **cost)
        if L.max_dollars is not None and L.cost_dollars >= L.max_dollars:
            yield from self._escalate("budget_exhausted", f"dollar budget exhausted: limit {L.max_dollars}, "
                                      f"spent {L.cost_dollars:.4f}")
            return "stop"
        if got.action is None:
            reason = got.error or "no valid proposal"
            self._bad_answers += 1
            if self._bad_answers >= M.strikes:  # an unreachable or unusable model
                yield from self._escalate("model_unavailable", f"the model gave no usable proposal "
                                          f"{self._bad_answers} times in a row; last: {reason}")
                return "stop"
            self.feedback.append(f"tick {L.tick}: your answer was refused: {reason}")
            yield from self._refuse("(proposal)", reason)
            return None
        self._bad_answers = 0
        if got.action == DONE:
            problems = ["claimed DONE but the goal does not hold on observed values"]
        elif got.action == ESCALATE:
            problems = ["asked to escalate, but a plan to the goal exists from the observed state"]
        else:
            pre = M.actions[got.action].pre_facts if got.action in M.actions else ()
            fresh = yield from self._observe(pre, fresh=True)
            problems = check_proposal(M, got.action, got.expects, {**L.facts, **fresh}, blocked)
        if problems:
            reason = "; ".join(problems)
            self.feedback.append(f"tick {L.tick}: {got.action} refused: {reason}")
            yield from self._refuse(got.action, reason)
            return None
        return got.action, dict(got.expects)

    def _escalate(self, reason: str, message: str, found: PlanView | None = None,
                  blocked: Sequence[str] = ()) -> Step:
        L, opts = self.ledger, self.options
        gaps = list(found.gaps) if found else []
        unreachable = list(found.unreachable) if found else []
        gap_facts = sorted({g["fact"] for g in gaps} | {u["fact"] for u in unreachable})
        context = {
            "spec": L.spec_path, "tick": L.tick, "gap_facts": gap_facts, "gaps": gaps,
            "unreachable": [u["fact"] for u in unreachable], "blocked": list(blocked),
            "observed": dict(L.facts),
            # `triage act --goal` turns this into a goal whose stopping condition is the
            # spec's own goal, observed (never the agent's word).
            "until": list(opts.until), "workspace": opts.workspace,
        }
        severity: Literal["warning", "critical"] = (
            "critical" if reason in ("unreachable", "no_admissible_action") else "warning")
        filed = _expect((yield Escalate(
            reason, message, severity, f"{opts.name}: {message}" if opts.name else message, context,
            tuple(suggestions(reason, gaps, unreachable, blocked)), tuple(unreachable), tuple(gaps),
            tuple(blocked))), Filed)
        yield self._commit("run.escalated", reason=reason, message=message, gaps=gaps, gapFacts=gap_facts,
                           blocked=list(blocked), triageId=filed.triage_id, report=filed.report)
        yield Done("escalated")


def _closing(gaps: Sequence[Mapping[str, Any]]) -> str:
    """Name the precondition that closes the gap: the root of each blocked chain."""
    roots = [f"{g['fact']} {g['condition']} (needed by {g['action']})" for g in gaps if g["root"]]
    return "; it closes when this holds: " + ", ".join(roots) if roots else ""


def suggestions(reason: str, gaps: Sequence[Mapping[str, Any]], unreachable: Sequence[Mapping[str, Any]],
                blocked: Sequence[str]) -> list[str]:
    """What a human can do to unblock the run."""
    out = [f"make `{g['fact']} {g['condition']}` hold (needed by `{g['action']}`): fix it in the world, "
           f"or add an action whose effects set `{g['fact']}`" for g in gaps if g["root"]]
    out += [f"no action sets `{u['fact']}`: add one, or correct the goal condition `{u['fact']} {u['condition']}`"
            for u in unreachable if not u.get("setters")]
    if reason == "tick_cap":
        out.append("raise policy.max_ticks only if the history shows steady progress")
    if reason == "no_admissible_action":
        out.append(f"investigate why {', '.join(blocked)} keeps failing (see the action logs), then resume")
    if reason == "approval_required":
        out.append("re-run with --yes to approve destructive actions marked confirm: true")
    return out


def check_proposal(model: Model, action: str, expects: Mapping[str, Any], facts: Mapping[str, Any],
                   blocked: Sequence[str]) -> list[str]:
    """Why a proposed action may not run (empty: it may). ``facts`` must hold fresh
    observations of its preconditions."""
    if action in (DONE, ESCALATE):
        return []
    if action not in model.actions:
        return [f"unknown action {action!r}; the actions are: {', '.join(model.actions)}"]
    info = model.actions[action]
    problems: list[str] = []
    if action in blocked:
        problems.append(f"{action} is blocked: it failed until the strike limit and nothing observed has changed")
    kind = "destructive action refused: " if info.destructive else ""
    problems += [f"{kind}precondition {text} does not hold (observed {model.fmt(facts.get(fact))})"
                 for fact, text in model.unmet(action, facts)]
    contract = dict(info.effects)
    claimed = dict(expects)
    # Types count: a claim of 1 for a true/false fact is not the contract's true.
    if claimed != contract or any(_kind(claimed[k]) != _kind(v) for k, v in contract.items()):
        problems.append(f"false claim: {action} makes {json.dumps(contract, sort_keys=True)}, "
                        f"not {json.dumps(claimed, sort_keys=True, default=str)}")
    return problems


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    return "number" if isinstance(v, int | float) else type(v).__name__


def claim_diff(claimed: Mapping[str, Any], observed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Claimed-versus-observed differences after an action ran."""
    return [{"fact": f, "claimed": v, "observed": observed.get(f)}
            for f, v in claimed.items() if f in observed and observed.get(f) != v]
