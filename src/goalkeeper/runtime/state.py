"""A run on disk: ``<home>/runs/<run-id>/`` with state.json, events.jsonl, logs/, a lock.

events.jsonl only grows and is the record of what happened; state.json is a
snapshot of it, rewritten atomically after each event is appended, and carries
``seq``, the last event it reflects. On resume ``reconcile`` brings the two
back into agreement, whichever one a crash left behind.
A run id is checked against its pattern before any path is built, and every
file is opened without following a link below the home.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import CorruptStateError, NotFoundError
from ..store import (
    FileLock,
    append_jsonl,
    home,
    new_id,
    now_iso,
    read_json,
    read_jsonl,
    write_json_atomic,
)
from ..store.atomic import validated
from ..store.ids import check_id, existing_ids
from ..store.safe import MAX_SPEC_BYTES, is_regular, read_bounded
from .ledger import STEP_EVENTS, Ledger, replay

__all__ = ["ReplanRecord", "RunListing", "RunState", "RunStore", "TickRecord", "file_sha256", "list_runs",
           "reconcile"]

RUN_SCHEMA_VERSION = 1
RunStatus = Literal["running", "reached", "escalated", "error"]


class TickRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tick: int
    action: str
    outcome: Literal["ok", "failed", "refused", "interrupted"]
    reason: str = ""
    missing_effects: list[str] = Field(default_factory=list)
    started: str
    ended: str | None = None
    seconds: float = 0.0
    strikes: int = 0
    log: str | None = None


class ReplanRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tick: int
    failed: list[str]
    corrections: list[dict[str, Any]]
    blocked: list[str]


class RunState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = RUN_SCHEMA_VERSION
    run_id: str
    spec_path: str
    spec_sha256: str
    spec_name: str
    status: RunStatus = "running"
    created: str
    updated: str
    search: str = "astar"
    runtime: Literal["planner", "hybrid"] = "planner"
    model: str | None = None
    max_ticks: int | None = None
    max_dollars: float | None = None
    cost_dollars: float = 0.0
    cost_unknown: bool = Field(default=False, description="some model call had no known price")
    tick: int = 0
    strikes: int = 0
    streak: list[str] = Field(default_factory=list, description="actions failed since the last success")
    facts: dict[str, Any] = Field(default_factory=dict)
    sources: dict[str, str] = Field(default_factory=dict, description="observed | believed | initial | unknown")
    errors: dict[str, str] = Field(default_factory=dict, description="why a fact is unknown")
    plan: list[str] = Field(default_factory=list)
    blocked: dict[str, dict[str, Any]] = Field(default_factory=dict)
    pending: dict[str, Any] | None = None
    history: list[TickRecord] = Field(default_factory=list)
    replans: list[ReplanRecord] = Field(default_factory=list)
    escalation: dict[str, Any] | None = None
    seq: int = Field(default=0, description="the last event (events.jsonl seq) this state reflects")

    def ledger(self) -> Ledger:
        return Ledger.from_dict(self.model_dump(mode="json"))

    def with_ledger(self, ledger: Ledger) -> RunState:
        """This run's identity with ``ledger``'s progress; validated, so a bad event cannot slip in."""
        return RunState.model_validate({**self.model_dump(mode="json"), **ledger.to_dict()})


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(read_bounded(path, limit=MAX_SPEC_BYTES, follow_symlinks=True)).hexdigest()


class RunStore:
    """Files of one run. All writes are atomic or appends; an event is always appended
    before the state that reflects it is saved."""

    def __init__(self, run_id: str, root: Path | None = None) -> None:
        self.run_id = check_id("run", run_id)
        self.root = root or home()
        self.dir = self.root / "runs" / run_id
        self.state_path = self.dir / "state.json"
        self.events_path = self.dir / "events.jsonl"
        self.logs = self.dir / "logs"
        self.lock = FileLock(self.dir / "lock", what=f"run {run_id}", root=self.root)

    @classmethod
    def create(cls, root: Path | None = None) -> RunStore:
        stamp = now_iso().replace("-", "").replace(":", "")[:15]
        return cls(f"run-{stamp}-{new_id('x', 4)[2:]}", root)

    def exists(self) -> bool:
        """A regular state file exists (a link or a FIFO in its place does not count)."""
        return is_regular(self.state_path, self.root)

    def never_started(self) -> bool:
        """The directory exists but the run was stopped before its state was first written."""
        return self.dir.is_dir() and not self.state_path.exists() and not self.events_path.exists()

    def load(self) -> RunState:
        try:
            data = read_json(self.state_path, root=self.root)
        except FileNotFoundError:
            if self.never_started():
                raise NotFoundError(f"run {self.run_id!r} never started: it was stopped before its state "
                                    "was written, and nothing ran; start a new run") from None
            raise NotFoundError(f"no run {self.run_id!r}; list runs with `goalkeeper runs list`") from None
        state = validated(RunState, data, self.state_path)
        if state.run_id != self.run_id:
            raise CorruptStateError(f"{self.state_path}: holds run_id {state.run_id!r}, not {self.run_id!r}; "
                                    "the file was left untouched — remove this run folder if it is not yours")
        return state

    def save(self, state: RunState) -> None:
        state.updated = now_iso()
        write_json_atomic(self.state_path, state.model_dump(mode="json"), root=self.root)

    def append(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Append one event (``{"seq", "event", ...}``) under the envelope ``ts``, ``runId``."""
        rec = {"ts": now_iso(), "runId": self.run_id, **event}
        append_jsonl(self.events_path, rec, root=self.root)
        return rec

    def commit(self, state: RunState, event: str, **data: Any) -> dict[str, Any]:
        """Outside the machine (e.g. a start that failed): append the next event, then save."""
        state.seq += 1
        rec = self.append({"seq": state.seq, "event": event, **data})
        self.save(state)
        return rec

    def events(self) -> list[dict[str, Any]]:
        return list(read_jsonl(self.events_path, root=self.root))

    def last_seq(self) -> int:
        return max((e["seq"] for e in self.events() if isinstance(e.get("seq"), int)), default=0)


def reconcile(state: RunState, events: list[dict[str, Any]]) -> tuple[RunState, list[dict[str, Any]]]:
    """The run as its log says it is, and the events the log must gain to agree with it.

    Events newer than the saved state (a crash between the append and the save) are
    applied with the same ``apply`` the machine used. A state ahead of its log (lines
    lost from events.jsonl) gets one ``run.reconciled`` event carrying the steps the
    log is missing, so no completed step exists only in state.json.
    """
    ledger = state.ledger()
    replay(ledger, events)
    top = max((e["seq"] for e in events if isinstance(e.get("seq"), int)), default=0)
    extra: list[dict[str, Any]] = []
    if ledger.seq > top:
        logged = {(e.get("tick"), e.get("action")) for e in events if e.get("event") in STEP_EVENTS}
        logged |= {(h.get("tick"), h.get("action")) for e in events if e.get("event") == "run.reconciled"
                   for h in e.get("history", [])}
        missing = [h for h in ledger.history if (h["tick"], h["action"]) not in logged]
        extra.append({"seq": ledger.seq + 1, "event": "run.reconciled", "logSeq": top, "stateSeq": ledger.seq,
                      "history": missing})
        ledger.seq += 1
    return state.with_ledger(ledger), extra


@dataclass(frozen=True)
class RunListing:
    """One entry of ``list_runs``: a loaded run, a damaged one, or one that never started."""

    run_id: str
    state: RunState | None = None
    status: str = "running"  # the state's status, or "corrupt" / "never started"
    error: str | None = None


def list_runs(root: Path | None = None) -> list[RunListing]:
    """Every run, newest first; damaged and never-started ones are listed as such."""
    out: list[RunListing] = []
    for run_id in sorted(existing_ids("run", root), reverse=True):
        store = RunStore(run_id, root)
        if store.never_started():
            out.append(RunListing(run_id, None, "never started",
                                  "stopped before its state was written; nothing ran"))
            continue
        try:
            st = store.load()
        except (CorruptStateError, NotFoundError) as e:
            out.append(RunListing(run_id, None, "corrupt", str(e)))
            continue
        out.append(RunListing(run_id, st, st.status))
    return out
