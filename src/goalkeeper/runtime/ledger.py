"""What a GOAP run has done so far (the ledger) and the only way it changes: ``apply(event)``.

Every change to a run is an event first. The machine applies each event to its
ledger and then hands it to the driver, which appends it to the log and only
then saves the ledger. A driver resuming after a ``kill -9`` applies the logged
events its saved ledger has not seen, with this same function, so a crash
between the append and the save loses nothing and repeats nothing.

Event names are ``<subject>.<past participle>`` (``tick.started``,
``action.finished``, ``run.escalated``); payload keys are camelCase, as on the
goal side. Ledger keys are the snake_case fields of ``RunState``.

Standard library only: the build copies this file into the standalone runner.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = ["STEP_EVENTS", "Ledger", "apply", "blocked_now", "corrections", "replay"]

# Events that add one record to the run's history (a step).
STEP_EVENTS = ("action.finished", "action.refused", "action.interrupted")


@dataclass
class Ledger:
    """The changing part of a run; ``RunState`` adds identity (id, spec name, created, ...)."""

    spec_path: str = ""
    spec_sha256: str = ""
    status: str = "running"
    max_ticks: int | None = None
    max_dollars: float | None = None
    cost_dollars: float = 0.0
    cost_unknown: bool = False
    tick: int = 0
    strikes: int = 0
    streak: list[str] = field(default_factory=list)  # actions failed since the last success
    facts: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # observed | believed | initial | unknown
    errors: dict[str, str] = field(default_factory=dict)  # why a fact is unknown
    plan: list[str] = field(default_factory=list)
    blocked: dict[str, dict[str, Any]] = field(default_factory=dict)  # action -> inputs when blocked
    pending: dict[str, Any] | None = None  # the action running right now
    history: list[dict[str, Any]] = field(default_factory=list)
    replans: list[dict[str, Any]] = field(default_factory=list)
    escalation: dict[str, Any] | None = None
    seq: int = 0  # the last event this ledger reflects

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ledger:
        names = {f.name for f in fields(cls)}
        return cls(**copy.deepcopy({k: v for k, v in data.items() if k in names}))

    def to_dict(self) -> dict[str, Any]:
        return copy.deepcopy(asdict(self))


def blocked_now(blocked: Mapping[str, Mapping[str, Any]], facts: Mapping[str, Any], spec_sha: str) -> list[str]:
    """Actions that tripped a replan and may not run again: nothing changed since.

    The snapshot holds every fact value plus the spec hash; any difference (a fact
    or the spec, i.e. an input) lifts the block.
    """
    current = {**facts, "__spec__": spec_sha}
    return sorted(a for a, snap in blocked.items() if dict(snap) == current)


def corrections(believed: Mapping[str, Any], observed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Facts whose believed value turned out different when observed."""
    return [
        {"fact": f, "believed": believed.get(f), "observed": v}
        for f, v in observed.items()
        if believed.get(f) != v
    ]


# -- apply: one function per event ---------------------------------------------------

Applier = Callable[[Ledger, Mapping[str, Any]], None]
_APPLIERS: dict[str, Applier] = {}


def _on(name: str) -> Callable[[Applier], Applier]:
    def deco(fn: Applier) -> Applier:
        _APPLIERS[name] = fn
        return fn

    return deco


def apply(ledger: Ledger, event: Mapping[str, Any]) -> None:
    """Fold one event into the ledger. Events of other kinds change nothing but ``seq``."""
    fn = _APPLIERS.get(str(event.get("event")))
    if fn is not None:
        fn(ledger, event)
    seq = event.get("seq")
    if isinstance(seq, int) and seq > ledger.seq:
        ledger.seq = seq


def replay(ledger: Ledger, events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Apply, in order, the events newer than the ledger; returns those applied."""
    newer = sorted((e for e in events if isinstance(e.get("seq"), int) and e["seq"] > ledger.seq),
                   key=lambda e: int(e["seq"]))
    for e in newer:
        apply(ledger, e)
    return newer


@_on("run.started")
def _started(L: Ledger, e: Mapping[str, Any]) -> None:
    if "maxTicks" in e:
        L.max_ticks = e["maxTicks"]


@_on("run.resumed")
def _resumed(L: Ledger, e: Mapping[str, Any]) -> None:
    if "maxTicks" in e:
        L.max_ticks = e["maxTicks"]
    if "maxDollars" in e:
        L.max_dollars = e["maxDollars"]
    for f in e.get("dropped", ()):  # beliefs the edited spec no longer accepts
        L.facts.pop(f, None)
        L.sources.pop(f, None)
        L.errors.pop(f, None)


@_on("spec.changed")
def _spec_changed(L: Ledger, e: Mapping[str, Any]) -> None:
    L.spec_sha256 = e["sha256"]
    L.spec_path = e.get("spec", L.spec_path)


@_on("facts.observed")
def _observed(L: Ledger, e: Mapping[str, Any]) -> None:
    for f, v in (e.get("initial") or {}).items():
        L.facts[f], L.sources[f] = v, "initial"
    unknown = e.get("unknown") or {}
    for f, v in e["facts"].items():
        L.facts[f] = v
        L.sources[f] = "unknown" if v is None else "observed"
        if f in unknown:
            L.errors[f] = unknown[f]
        else:
            L.errors.pop(f, None)


@_on("plan.made")
def _plan(L: Ledger, e: Mapping[str, Any]) -> None:
    L.plan = list(e["plan"])


@_on("tick.started")
def _tick_started(L: Ledger, e: Mapping[str, Any]) -> None:
    L.tick = e["tick"]
    L.pending = {"tick": e["tick"], "action": e["action"], "started": e["started"]}


def _record(L: Ledger, e: Mapping[str, Any], outcome: str) -> None:
    L.history.append({
        "tick": e["tick"], "action": e["action"], "outcome": outcome, "reason": e.get("reason", ""),
        "missing_effects": list(e.get("missingEffects", [])), "started": e["started"],
        "ended": e.get("ended"), "seconds": e.get("seconds", 0.0), "strikes": e.get("strikes", 0),
        "log": e.get("log"),
    })
    L.pending = None


@_on("action.finished")
def _finished(L: Ledger, e: Mapping[str, Any]) -> None:
    _record(L, e, e["outcome"])
    for f, v in (e.get("believed") or {}).items():  # diagnostic effects: believed on success
        L.facts[f], L.sources[f] = v, "believed"
    if e["outcome"] == "ok":
        L.strikes, L.streak = 0, []
    else:
        L.strikes = e["strikes"]
        L.streak.append(e["action"])


@_on("action.refused")
def _refused(L: Ledger, e: Mapping[str, Any]) -> None:
    L.tick = e["tick"]  # a refusal is a decision too: the tick cap bounds refusal loops
    _record(L, e, "refused")
    L.strikes = e["strikes"]
    L.streak.append(e["action"])


@_on("action.interrupted")
def _interrupted(L: Ledger, e: Mapping[str, Any]) -> None:
    _record(L, e, "interrupted")


@_on("run.replanned")
def _replanned(L: Ledger, e: Mapping[str, Any]) -> None:
    snapshot = {**L.facts, "__spec__": L.spec_sha256}
    for a in e["blocked"]:
        L.blocked[a] = dict(snapshot)
    L.replans.append({"tick": e["tick"], "failed": list(e["failed"]),
                      "corrections": list(e["corrections"]), "blocked": list(e["blocked"])})
    L.strikes, L.streak, L.plan = 0, [], []


@_on("proposal.received")
@_on("proposal.failed")
def _proposal(L: Ledger, e: Mapping[str, Any]) -> None:
    L.cost_dollars += float(e.get("costDollars", 0.0))
    L.cost_unknown = L.cost_unknown or not e.get("costKnown", True)


@_on("run.reached")
def _reached(L: Ledger, e: Mapping[str, Any]) -> None:
    L.status, L.plan = "reached", []


@_on("run.escalated")
def _escalated(L: Ledger, e: Mapping[str, Any]) -> None:
    L.status = "escalated"
    L.escalation = {"reason": e["reason"], "message": e["message"], "triage_id": e.get("triageId"),
                    "report": e.get("report"), "gaps": list(e.get("gaps", []))}
