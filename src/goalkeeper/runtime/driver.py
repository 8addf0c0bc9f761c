"""The thin driver of a GOAP run: observe, decide, act one action, persist, repeat.

All judgement lives in ``decide.py``; this module only carries out its answers
and writes every completed step to disk before starting the next one, so a
``kill -9`` anywhere loses nothing that finished.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..model.conditions import check_value
from ..model.lint import require_runnable
from ..model.loader import load_spec
from ..model.spec import Spec
from ..store import file_item, now_iso, write_json_atomic, write_text_atomic
from .decide import Escalate, Execute, Reached, blocked_now, decide, judge
from .hybrid import DONE, ESCALATE, LLMProposer, Proposal, check_proposal, claim_diff
from .observers import ObserveContext, observe_all
from .process import run_command
from .progress import Reporter, null_reporter
from .report import build_report, render_markdown
from .state import RunState, RunStore, TickRecord, file_sha256

__all__ = ["RunOptions", "resume_run", "start_run"]


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


def start_run(spec_path: str | Path, opts: RunOptions) -> RunState:
    spec = load_spec(spec_path)
    require_runnable(spec)
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
        runner = _Runner(spec, store, state, opts)
        runner.emit("run_started", spec=state.spec_path, max_ticks=state.max_ticks, search=opts.search)
        runner.first_observation()
        return runner.loop()


def resume_run(run_id: str, opts: RunOptions, spec_path: str | Path | None = None) -> RunState:
    store = RunStore(run_id, opts.root)
    if not store.exists():
        store.load()  # raises NotFoundError without creating anything
    with store.lock:
        state = store.load()
        if state.status != "running":
            raise _finished(state)
        path = Path(spec_path) if spec_path else Path(state.spec_path)
        spec = load_spec(path)  # an edited, now-invalid spec fails here; the run is untouched
        require_runnable(spec)
        runner = _Runner(spec, store, state, opts)
        runner.emit("resumed", spec=str(path.resolve()), tick=state.tick)
        sha = file_sha256(path)
        if sha != state.spec_sha256 or str(path.resolve()) != state.spec_path:
            state.spec_sha256, state.spec_path = sha, str(path.resolve())
            runner.emit("spec_changed", sha256=sha)
        # Keep beliefs the edited spec still accepts; the rest are observed or re-initialised.
        state.facts = {
            f: v for f, v in state.facts.items()
            if f in spec.facts and (v is None or check_value(spec.facts[f].type, v)[1] is None)
        }
        if opts.max_ticks is not None:
            state.max_ticks = opts.max_ticks
        if opts.max_dollars is not None:
            state.max_dollars = opts.max_dollars
        if state.runtime == "hybrid" and opts.proposer is None:
            from ..errors import ConfigError

            raise ConfigError(f"run {run_id} uses the hybrid runtime; resume it with --runtime hybrid --model ...")
        if state.pending is not None:
            p = state.pending
            state.history.append(
                TickRecord(tick=p["tick"], action=p["action"], outcome="interrupted",
                           reason="the runner stopped while this action ran; its effects are re-observed",
                           started=p["started"], ended=now_iso(), strikes=state.strikes)
            )
            state.pending = None
            runner.emit("interrupted", tick=p["tick"], action=p["action"])
        runner.first_observation()
        return runner.loop()


def _finished(state: RunState) -> Exception:
    from ..errors import ConfigError

    return ConfigError(f"run {state.run_id} already ended ({state.status}); start a new run instead")


class _Runner:
    def __init__(self, spec: Spec, store: RunStore, state: RunState, opts: RunOptions) -> None:
        self.spec = spec
        self.store = store
        self.state = state
        self.opts = opts
        base = Path(state.spec_path).parent
        env = dict(opts.env if opts.env is not None else os.environ)
        env.update(GOALKEEPER_RUN_ID=state.run_id, GOALKEEPER_SPEC_DIR=str(base))
        self.env = env
        self.base = base
        self.ctx = ObserveContext(base_dir=base, env=env, timeout=spec.policy.observe_timeout)
        self.bad_proposals = 0  # hybrid: unusable model answers in a row

    # -- plumbing -------------------------------------------------------------
    def emit(self, kind: str, **data: Any) -> None:
        self.opts.reporter(self.store.event(kind, **data))

    def save(self) -> None:
        self.store.save(self.state)

    def observe(self, facts: list[str], *, fresh: bool = False) -> dict[str, Any]:
        obs = observe_all(self.spec, facts, self.ctx)
        st = self.state
        for f, o in obs.items():
            st.facts[f] = o.value
            st.sources[f] = "observed" if o.known else "unknown"
            if o.error:
                st.errors[f] = o.error
            else:
                st.errors.pop(f, None)
        self.emit(
            "observed",
            facts={f: o.value for f, o in obs.items()},
            unknown={f: o.error for f, o in obs.items() if o.error},
            **({"fresh": True} if fresh else {}),
        )
        return {f: o.value for f, o in obs.items()}

    @property
    def routine_facts(self) -> list[str]:
        return [f for f, d in self.spec.facts.items() if not d.diagnostic]

    def first_observation(self) -> None:
        st = self.state
        todo = self.routine_facts
        for f, d in self.spec.facts.items():
            if d.diagnostic and f not in st.facts:
                if d.initial is not None:
                    st.facts[f] = d.initial
                    st.sources[f] = "initial"
                else:
                    todo.append(f)
        self.observe(todo)
        self.save()

    # -- the loop -------------------------------------------------------------
    def loop(self) -> RunState:
        st, spec = self.state, self.spec
        while True:
            blocked = blocked_now(st.blocked, st.facts, st.spec_sha256)
            d = decide(spec, st.facts, ticks=st.tick, max_ticks=st.max_ticks, blocked=blocked, search=st.search)
            if isinstance(d, Reached):
                if not self.confirm_goal():
                    continue  # a belief said done; the world did not
                st.status = "reached"
                st.plan = []
                self.save()
                self.emit("reached", tick=st.tick)
                return st
            if isinstance(d, Escalate):
                return self.escalate(d)
            assert isinstance(d, Execute)
            if list(d.result.plan) != st.plan:
                st.plan = list(d.result.plan)
                self.emit("plan", plan=st.plan, cost=d.result.cost, expanded=d.result.expanded,
                          excluded=blocked)
            proposal: Proposal | None = None
            if self.opts.proposer is not None:
                chosen = self.propose(blocked)
                if isinstance(chosen, Escalate):
                    return self.escalate(chosen)
                if chosen is None:
                    continue  # refused: already a strike
                proposal, name = chosen, chosen.action
            else:
                name = d.action
            action = spec.actions[name]
            if action.destructive:
                refusal = self.check_destructive(name)
                if isinstance(refusal, Escalate):
                    return self.escalate(refusal)
                if refusal:
                    self.fail(name, "refused", refusal, now_iso())
                    continue
            ok = self.act(name)
            if proposal is not None and self.opts.proposer is not None:
                diff = claim_diff(proposal.expects, st.facts)
                self.emit("claims", tick=st.tick, action=name, claimed=proposal.expects, differences=diff)
                if not ok:
                    self.opts.proposer.tell(f"tick {st.tick}: {name} failed: {st.history[-1].reason}")

    def propose(self, blocked: list[str]) -> Proposal | Escalate | None:
        """Hybrid: ask the model, then validate in code. ``None`` = refused (a strike)."""
        st, spec = self.state, self.spec
        proposer = self.opts.proposer
        assert proposer is not None
        out = proposer.propose(st.facts, tick=st.tick, blocked=blocked)
        st.cost_dollars += out.cost_dollars
        st.cost_unknown = st.cost_unknown or not out.cost_known
        self.save()
        if st.max_dollars is not None and st.cost_dollars >= st.max_dollars:
            return Escalate("budget_exhausted",
                            f"dollar budget exhausted: limit {st.max_dollars}, spent {st.cost_dollars:.4f}")
        if out.proposal is None:
            reason = out.error or "no valid proposal"
            self.bad_proposals += 1
            if self.bad_proposals >= spec.policy.strikes:  # an unreachable or unusable model
                return Escalate("model_unavailable",
                                f"the model gave no usable proposal {self.bad_proposals} times in a row; "
                                f"last: {reason}")
            self.emit("refused", action="(proposal)", reason=reason)
            proposer.tell(f"tick {st.tick}: your answer was refused: {reason}")
            self.fail("(proposal)", "refused", reason, now_iso())
            return None
        p = out.proposal
        self.bad_proposals = 0
        self.emit("proposed", tick=st.tick, action=p.action, expects=p.expects, reason=p.reason,
                  cost_dollars=out.cost_dollars)
        if p.action in (DONE, ESCALATE):
            why = ("claimed DONE but the goal does not hold on observed values" if p.action == DONE
                   else "asked to escalate, but a plan to the goal exists from the observed state")
            problems = [why]
        else:
            pre = sorted({c.fact for c in spec.actions[p.action].pre_conditions}) if p.action in spec.actions else []
            fresh = self.observe(pre, fresh=True) if pre else {}
            problems = check_proposal(spec, p, {**st.facts, **fresh}, blocked)
        if problems:
            reason = "; ".join(problems)
            self.emit("refused", action=p.action, reason=reason)
            proposer.tell(f"tick {st.tick}: {p.action} refused: {reason}")
            self.fail(p.action, "refused", reason, now_iso())
            return None
        return p

    def confirm_goal(self) -> bool:
        """Done only on observed values: re-observe every goal fact (diagnostic ones too) fresh."""
        facts = sorted({c.fact for c in self.spec.goal_conditions})
        fresh = self.observe(facts, fresh=True)
        self.save()
        return all(c.holds(fresh.get(c.fact)) for c in self.spec.goal_conditions)

    def check_destructive(self, name: str) -> str | Escalate | None:
        """Re-observe the preconditions fresh; refuse on any failure; ask when confirm is set."""
        action = self.spec.actions[name]
        facts = sorted({c.fact for c in action.pre_conditions})
        fresh = self.observe(facts, fresh=True) if facts else {}
        failed = [str(c) for c in action.pre_conditions if not c.holds(fresh.get(c.fact))]
        self.save()
        if failed:
            reason = "destructive action refused: precondition no longer holds: " + ", ".join(failed)
            self.emit("refused", action=name, reason=reason)
            return reason
        if action.confirm and not self.opts.yes:
            if self.opts.confirm is None:
                return Escalate("approval_required",
                                f"destructive action {name} needs approval (confirm: true); re-run with --yes")
            if not self.opts.confirm(name):
                return Escalate("approval_required", f"approval for destructive action {name} was declined")
        return None

    def act(self, name: str) -> bool:
        st, spec = self.state, self.spec
        action = spec.actions[name]
        st.tick += 1
        started = now_iso()
        st.pending = {"tick": st.tick, "action": name, "started": started}
        self.save()
        self.emit("tick_started", tick=st.tick, action=name)
        env = dict(self.env, GOALKEEPER_TICK=str(st.tick))
        if action.env:
            env.update(action.env)
        cwd = self.base / action.cwd if action.cwd else self.base
        if action.run is None:
            res = None
            exit_ok, exit_text = True, "no command (effects are observed)"
        else:
            res = run_command(action.run, cwd=cwd, env=env, timeout=action.timeout or spec.policy.action_timeout)
            exit_ok, exit_text = res.ok, res.describe()
            if not res.ok and res.stderr.strip():
                exit_text += ": " + res.stderr.strip().splitlines()[-1][:200]
        log = self.store.logs / f"tick-{st.tick:04d}-{name}.log"
        if res is not None:
            write_text_atomic(
                log,
                f"$ {action.run}\n# {res.describe()} in {res.seconds:.2f}s\n"
                f"## stdout\n{res.stdout}\n## stderr\n{res.stderr}\n",
            )
        # Effects on diagnostic facts cannot be re-observed each tick: believe them on success.
        after = self.observe(self.routine_facts)
        if exit_ok:
            for f, v in action.effect_values:
                if spec.facts[f].diagnostic:
                    st.facts[f] = v
                    st.sources[f] = "believed"
        verdict = judge(spec, name, exit_ok, exit_text, after)
        st.pending = None
        if verdict.ok:
            st.strikes = 0
            st.streak = []
            st.history.append(
                TickRecord(tick=st.tick, action=name, outcome="ok", reason=verdict.reason, started=started,
                           ended=now_iso(), seconds=res.seconds if res else 0.0, strikes=0,
                           log=str(log) if res else None)
            )
            self.save()
            self.emit("action_finished", tick=st.tick, action=name, outcome="ok", reason=verdict.reason,
                      strikes=0, limit=spec.policy.strikes)
            return True
        self.fail(name, "failed", verdict.reason, started, list(verdict.missing),
                  res.seconds if res else 0.0, str(log) if res else None)
        return False

    def fail(self, name: str, outcome: Literal["failed", "refused"], reason: str, started: str, missing: list[str] | None = None,
             seconds: float = 0.0, log: str | None = None) -> None:
        st, spec = self.state, self.spec
        if outcome == "refused":
            st.tick += 1  # a refusal is a decision too: the tick cap must bound refusal loops
        st.strikes += 1
        st.streak.append(name)
        st.history.append(
            TickRecord(tick=st.tick, action=name, outcome=outcome,
                       reason=reason, missing_effects=missing or [], started=started, ended=now_iso(),
                       seconds=seconds, strikes=st.strikes, log=log)
        )
        self.save()
        self.emit("action_finished", tick=st.tick, action=name, outcome=outcome, reason=reason,
                  strikes=st.strikes, limit=spec.policy.strikes)
        if st.strikes >= spec.policy.strikes:
            self.replan()

    def replan(self) -> None:
        """The strike limit fired: observe everything, correct beliefs, block what failed."""
        st = self.state
        believed = dict(st.facts)
        observed = self.observe(list(self.spec.facts))
        failed, fixes = st.record_replan(self.spec.actions, believed, observed)
        self.save()
        self.emit("replan", tick=st.tick, failed=failed, corrections=fixes, blocked=failed)

    def escalate(self, esc: Escalate) -> RunState:
        st = self.state
        report = build_report(self.spec, st, esc)
        md = render_markdown(report)
        write_json_atomic(self.store.dir / "report.json", report)
        write_text_atomic(self.store.dir / "report.md", md)
        gap_facts = sorted({g["fact"] for g in report["gaps"]} | {u["fact"] for u in report["unreachable"]})
        summary = f"{st.spec_name}: {esc.message}"
        item = file_item(
            source="run",
            source_id=st.run_id,
            reason=esc.reason,
            summary=summary,
            context={"spec": st.spec_path, "gap_facts": gap_facts, "gaps": report["gaps"],
                     "report": str(self.store.dir / "report.json"),
                     # `triage act --goal` turns this into a goal whose stopping condition is
                     # the spec's own goal, observed (never the agent's word).
                     "until": [shlex.join(["goalkeeper", "observe", st.spec_path, "--check"])],
                     "workspace": str(self.base)},
            suggested_actions=report["suggested_actions"],
            severity="critical" if esc.reason in ("unreachable", "no_admissible_action") else "warning",
            markdown=md,
            root=self.opts.root,
        )
        st.status = "escalated"
        st.escalation = {"reason": esc.reason, "message": esc.message, "triage_id": item.id,
                         "report": str(self.store.dir / "report.md"), "gaps": report["gaps"]}
        self.save()
        self.emit("escalated", reason=esc.reason, message=esc.message, gaps=report["gaps"],
                  triage_id=item.id, report=str(self.store.dir / "report.md"))
        return st
