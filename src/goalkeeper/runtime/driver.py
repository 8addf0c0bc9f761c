"""The local driver of a GOAP run: carries out what the tick machine asks, in this process.

Every decision is the machine's (``machine.py``). This module observes, runs
commands, prompts, calls the model and writes files. Each event is appended to
events.jsonl before the state that reflects it is saved, and ``resume_run``
first reconciles the two, so a ``kill -9`` at any instant neither loses nor
repeats a completed step.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConfigError, NotFoundError
from ..model.conditions import check_value
from ..model.lint import require_runnable
from ..model.loader import load_spec
from ..model.spec import Spec
from ..model.vars import require_variables
from ..store import now_iso, write_text_atomic
from ..store.triage import resolve_by
from .decide import SpecModel
from .hybrid import LLMProposer
from .machine import (
    Act,
    Acted,
    Commit,
    Confirm,
    Done,
    Escalate,
    Instruction,
    Observe,
    Observed,
    Options,
    Propose,
    Proposed,
    Resume,
    RunMachine,
)
from .observers import ObserveContext, observe_all
from .preflight import preflight_spec, refuse
from .process import run_command
from .progress import Reporter, null_reporter
from .report import file_escalation, until_commands
from .state import RunState, RunStore, file_sha256, reconcile

__all__ = ["RunOptions", "finished_run", "resume_run", "start_run"]


@dataclass
class RunOptions:
    search: str = "astar"
    max_ticks: int | None = None  # overrides policy.max_ticks
    yes: bool = False  # approve destructive actions marked confirm: true
    confirm: Callable[[str], bool] | None = None  # interactive approval; None = non-interactive
    env: Mapping[str, str] | None = None
    root: Path | None = None  # state home (default $GOALKEEPER_HOME or ./.goalkeeper)
    reporter: Reporter = field(default=null_reporter)
    proposer: LLMProposer | None = None  # hybrid runtime: the model proposes, code validates
    max_dollars: float | None = None  # budget for model calls in this run


def preflight_run(spec: Spec, spec_path: str | Path, env: Mapping[str, str] | None = None) -> None:
    """Refuse what would fail on every tick (unset ``${VAR}``, shell operators in an argv list);
    every engine calls it before the run exists."""
    env = env if env is not None else os.environ
    require_variables(spec, env)
    refuse(preflight_spec(spec, env, Path(spec_path).resolve().parent), "run refused")


def start_run(spec_path: str | Path, opts: RunOptions) -> RunState:
    if not isinstance(spec_path, str | os.PathLike):
        raise ConfigError(f"start_run takes a spec file's path, not {type(spec_path).__name__}; "
                          "goalkeeper.run(spec) takes a path, a dict or a Spec")
    spec = load_spec(spec_path)
    require_runnable(spec)
    preflight_run(spec, spec_path, opts.env)
    store = RunStore.create(opts.root)
    with store.lock:
        ts = now_iso()
        state = RunState(
            run_id=store.run_id,
            spec_path=str(Path(spec_path).resolve()),
            spec_sha256=file_sha256(spec_path),
            spec_name=spec.name or "",
            created=ts,
            updated=ts,
            search=opts.search,
            max_ticks=opts.max_ticks if opts.max_ticks is not None else spec.policy.max_ticks,
            runtime="hybrid" if opts.proposer else "planner",
            model=opts.proposer.model if opts.proposer else None,
            max_dollars=opts.max_dollars,
        )
        store.save(state)  # the run exists on disk before anything else happens
        return _Driver(spec, store, state, opts).run({"search": opts.search, "engine": "local"})


def finished_run(run_id: str, root: Path | None = None) -> RunState | None:
    """The run as it ended (reconciled with its log), or None while it can still go on."""
    store = _existing(run_id, root)
    with store.lock:
        saved = store.load()
        state, extra = reconcile(saved, store.events())
        if state.status == "running":
            return None
        _persist(store, state, extra, saved)
        return state


def resume_run(run_id: str, opts: RunOptions, spec_path: str | Path | None = None) -> RunState:
    """Continue a run from its last completed step. A run that already ended is returned as
    it ended (the caller reports its outcome); nothing runs again."""
    store = _existing(run_id, opts.root)
    with store.lock:
        saved = store.load()
        state, extra = reconcile(saved, store.events())
        if state.status != "running":
            _persist(store, state, extra, saved)
            return state
        path = Path(spec_path) if spec_path else Path(state.spec_path)
        spec = load_spec(path)  # an edited, now-invalid spec fails here; the run is untouched
        require_runnable(spec)
        preflight_run(spec, path, opts.env)
        if state.runtime == "hybrid" and opts.proposer is None:
            raise ConfigError(f"run {run_id} uses the hybrid runtime; resume it with --runtime hybrid --model ...")
        for rec in _persist(store, state, extra, saved):
            opts.reporter(rec)
        # Keep beliefs the edited spec still accepts; the rest are observed or re-initialised.
        dropped = tuple(f for f, v in state.facts.items()
                        if f not in spec.facts or (v is not None and check_value(spec.facts[f].type, v)[1] is not None))
        resume = Resume(
            spec_path=str(path.resolve()), spec_sha256=file_sha256(path),
            max_ticks=opts.max_ticks if opts.max_ticks is not None else state.max_ticks,
            max_dollars=opts.max_dollars if opts.max_dollars is not None else state.max_dollars,
            dropped=dropped,
        )
        return _Driver(spec, store, state, opts).run({}, resume)


def _existing(run_id: str, root: Path | None) -> RunStore:
    store = RunStore(run_id, root)
    if not store.exists():
        if store.never_started():
            _clean_never_started(store)
        store.load()  # raises NotFoundError without creating anything
    return store


def _persist(store: RunStore, state: RunState, extra: list[dict[str, object]], saved: RunState) -> list[dict[str, object]]:
    """Write back what reconciling found: missing events first, then the state."""
    recs = [store.append(e) for e in extra]
    if state.seq != saved.seq:
        store.save(state)
    return recs


def _clean_never_started(store: RunStore) -> None:
    """A run killed before its first state was written holds only a lock: nothing ran, remove it."""
    with contextlib.suppress(OSError), store.lock:
        if store.never_started() and {p.name for p in store.dir.iterdir()} <= {"lock"}:
            shutil.rmtree(store.dir)
    raise NotFoundError(f"run {store.run_id!r} never started: it was stopped before its state was written, "
                        "and nothing ran; start a new run")


class _Driver:
    def __init__(self, spec: Spec, store: RunStore, state: RunState, opts: RunOptions) -> None:
        self.spec, self.store, self.state, self.opts = spec, store, state, opts
        base = Path(state.spec_path).parent
        env = dict(opts.env if opts.env is not None else os.environ)
        env.update(GOALKEEPER_RUN_ID=state.run_id, GOALKEEPER_SPEC_DIR=str(base))
        self.env, self.base = env, base
        self.ctx = ObserveContext(base_dir=base, env=env, timeout=spec.policy.observe_timeout)

    def run(self, opening: dict[str, object], resume: Resume | None = None) -> RunState:
        options = Options(
            yes=self.opts.yes, hybrid=self.opts.proposer is not None, name=self.state.spec_name,
            until=until_commands(self.state.spec_path), workspace=str(self.base),
            opening={**opening, **({"runtime": "hybrid", "model": self.state.model} if self.opts.proposer else {})},
            resume=resume,
        )
        machine = RunMachine(SpecModel(self.spec, self.state.search), self.state.ledger(), options, now_iso)
        result: object = None
        while True:
            instruction = machine.send(result)
            if isinstance(instruction, Done):
                if self.state.status == "reached":  # a success closes the triage items it answers
                    resolve_by("run", self.state.run_id, workspace=str(self.base), spec=self.state.spec_path,
                               commands=until_commands(self.state.spec_path), root=self.opts.root)
                return self.state
            if isinstance(instruction, Commit):
                self.commit(instruction, machine)
                result = None
            else:
                result = self.carry_out(instruction)

    def commit(self, c: Commit, machine: RunMachine) -> None:
        rec = self.store.append(c.event)  # the event first: a crash now is repaired from the log
        self.state = self.state.with_ledger(machine.ledger)
        self.store.save(self.state)
        self.opts.reporter(rec)

    def carry_out(self, i: Instruction) -> object:
        if isinstance(i, Observe):
            obs = observe_all(self.spec, i.facts, self.ctx)
            return Observed({f: o.value for f, o in obs.items()}, {f: o.error for f, o in obs.items() if o.error})
        if isinstance(i, Act):
            return self.act(i)
        if isinstance(i, Confirm):
            return None if self.opts.confirm is None else bool(self.opts.confirm(i.action))
        if isinstance(i, Propose):
            assert self.opts.proposer is not None
            out = self.opts.proposer.propose(i.facts, tick=i.tick, blocked=i.blocked, feedback=i.feedback)
            p = out.proposal
            if p is None:
                return Proposed(None, cost_dollars=out.cost_dollars, cost_known=out.cost_known, error=out.error)
            return Proposed(p.action, p.expects, p.reason, out.cost_dollars, out.cost_known)
        if isinstance(i, Escalate):
            return file_escalation(self.spec, self.state, i, self.store, self.opts.root)
        raise AssertionError(f"unknown instruction {i!r}")

    def act(self, i: Act) -> Acted:
        action = self.spec.actions[i.action]
        if action.run is None:
            return Acted(True, "no command (effects are observed)")
        env = dict(self.env, GOALKEEPER_TICK=str(i.tick))
        if action.env:
            env.update(action.env)
        cwd = self.base / action.cwd if action.cwd else self.base
        res = run_command(action.run, cwd=cwd, env=env, timeout=action.timeout or self.spec.policy.action_timeout)
        text = res.describe()
        if not res.ok and res.stderr.strip():
            text += ": " + res.stderr.strip().splitlines()[-1][:200]
        log = self.store.logs / f"tick-{i.tick:04d}-{i.action}.log"
        write_text_atomic(log, f"$ {action.run}\n# {res.describe()} in {res.seconds:.2f}s\n"
                               f"## stdout\n{res.stdout}\n## stderr\n{res.stderr}\n")
        return Acted(res.ok, text, res.seconds, str(log))
