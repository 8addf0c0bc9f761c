"""A run on disk: ``<home>/runs/<run-id>/`` with state.json, events.jsonl, logs/, a lock.

state.json is rewritten atomically after every step; events.jsonl only grows.
A run id is checked against its pattern before any path is built, and every
file is opened without following a link below the home.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
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
from .decide import corrections

__all__ = ["ReplanRecord", "RunState", "RunStore", "TickRecord", "file_sha256"]

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

    def record_replan(
        self, actions: Collection[str], believed: Mapping[str, Any], observed: Mapping[str, Any]
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """The strike limit fired: note corrected beliefs, block what failed, reset strikes.

        Shared by the local driver and the Temporal workflow; no I/O. Returns the
        blocked actions and the corrections.
        """
        fixes = corrections(believed, observed)
        failed = sorted(set(self.streak) & set(actions))
        snapshot = {**self.facts, "__spec__": self.spec_sha256}
        for a in failed:
            self.blocked[a] = dict(snapshot)
        self.replans.append(ReplanRecord(tick=self.tick, failed=failed, corrections=fixes, blocked=failed))
        self.strikes, self.streak, self.plan = 0, [], []
        return failed, fixes


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(read_bounded(path, limit=MAX_SPEC_BYTES, follow_symlinks=True)).hexdigest()


class RunStore:
    """Files of one run. All writes are atomic or appends."""

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

    def load(self) -> RunState:
        try:
            data = read_json(self.state_path, root=self.root)
        except FileNotFoundError:
            raise NotFoundError(f"no run {self.run_id!r}; list runs with `goalkeeper runs list`") from None
        state = validated(RunState, data, self.state_path)
        if state.run_id != self.run_id:
            raise CorruptStateError(f"{self.state_path}: holds run_id {state.run_id!r}, not {self.run_id!r}; "
                                    "the file was left untouched — remove this run folder if it is not yours")
        return state

    def save(self, state: RunState) -> None:
        state.updated = now_iso()
        write_json_atomic(self.state_path, state.model_dump(mode="json"), root=self.root)

    def event(self, kind: str, **data: Any) -> dict[str, Any]:
        rec = {"ts": now_iso(), "run_id": self.run_id, "event": kind, **data}
        append_jsonl(self.events_path, rec, root=self.root)
        return rec

    def events(self) -> list[dict[str, Any]]:
        return list(read_jsonl(self.events_path, root=self.root))


def list_runs(root: Path | None = None) -> list[RunState | tuple[str, str]]:
    """Every run, newest first; a damaged one appears as (run_id, error) and never stops the list."""
    out: list[RunState | tuple[str, str]] = []
    for run_id in sorted(existing_ids("run", root), reverse=True):
        store = RunStore(run_id, root)
        try:
            out.append(store.load())
        except NotFoundError:
            continue  # a folder without state (a crash before the first save)
        except CorruptStateError as e:
            out.append((run_id, str(e)))
    return out
