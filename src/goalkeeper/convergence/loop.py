"""The thin driver: ask :func:`decide`, carry out one phase, persist, repeat.

Every phase (maker, conditions, oracle) ends with an atomic write of the goal
and an event in ``<goalId>.events.jsonl``, so ``kill -9`` at any instant loses
at most the phase in flight. Pause/abandon requests are obeyed at phase
boundaries. Only one loop per goal runs at a time (an flock on the goal).

The verdict is sealed (see :mod:`.seal`): the maker runs contained (and
sandboxed when bubblewrap is there), nothing it started survives the phase,
the tree it left is hashed whole and checked against the baseline before any
check runs, the checks run sealed on exactly that tree, and the tree is
hashed again after the checks, after the oracle and when the goal converges;
any difference voids the iteration.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ConfigError, GoalkeeperError, IntegrityError
from ..proc import Policy, Runner, end_leftovers, policy, run_argv
from ..store import goals as gstore
from ..store import triage
from ..store.home import home, now_iso, seconds_since
from . import ledger
from .alive import beating, lost_seconds
from .blame import blame_failures
from .checkpoints import Checkpoint
from .containment import maker_policy, sandbox_mode
from .contracts import Maker, MakerRequest, get_maker
from .decide import (
    Abandoned,
    Converged,
    Escalate,
    Finished,
    Paused,
    StartIteration,
    combine_verdict,
    decide,
)
from .goal import Escalation, Goal, Iteration, check_rules, parse_duration
from .lifecycle import escalate
from .logs import write_log
from .oracle import Oracle, OracleRequest, OracleVerdict, get_oracle
from .persist import audited_goal, commit_goal, goal_fields, save_goal
from .protect import Finding, glob_match
from .seal import Seal
from .tree import Tree, touched

__all__ = ["EventSink", "GoalLoop", "check_goal", "run_goal"]

EventSink = Callable[[dict[str, Any]], None]


class GoalLoop:
    """Runs one goal until it converges, escalates, pauses or is abandoned."""

    def __init__(
        self,
        goal_id: str,
        *,
        root: Path | None = None,
        maker: Maker | None = None,
        oracle: Oracle | None = None,
        runner: Runner = run_argv,
        clock: Callable[[], float] = time.monotonic,
        on_event: EventSink | None = None,
    ) -> None:
        self.goal_id = goal_id
        self.root = root
        self._maker = maker
        self._oracle = oracle
        self.runner = runner
        self.clock = clock
        self.on_event = on_event
        self._mark = clock()
        self._seal: Seal | None = None
        self._after_maker: Tree | None = None

    # --- plumbing -------------------------------------------------------------
    def _emit(self, event: str, goal: Goal | None = None, rec: Iteration | None = None, **fields: Any) -> None:
        """Append a signed event; with ``goal``/``rec`` it carries what a replay needs to rebuild them."""
        fields = {**self.extra_fields, **fields}
        if goal is not None:
            fields["goalFields"] = goal_fields(goal)
        if rec is not None:
            fields["record"] = rec.dump()
        out = ledger.append(self.goal_id, event, self.root, **fields)
        if goal is not None:
            goal.ledger_seq = int(out["seq"])
        self._publish(out)

    def _publish(self, out: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(ledger.public(out))

    def _account(self, goal: Goal) -> None:
        now = self.clock()
        if goal.state == "active":
            goal.elapsed_seconds = round(goal.elapsed_seconds + max(0.0, now - self._mark), 3)
        self._mark = now

    def _save(self, goal: Goal) -> None:
        self._account(goal)
        save_goal(goal, self.root)

    def _commit(self, goal: Goal, event: str, rec: Iteration | None = None, **fields: Any) -> None:
        """The event first, then the state that depends on it (a crash between is replayed)."""
        self._account(goal)
        self._publish(commit_goal(goal, event, self.root, rec, **{**self.extra_fields, **fields}))

    def _home(self) -> Path:
        return (self.root or home()).resolve()

    def seal(self, goal: Goal, ws: Path) -> Seal:
        if self._seal is None or self._seal.goal is not goal:
            self._seal = Seal(goal, ws, self._home(), runner=self.runner)
        return self._seal

    @property
    def extra_fields(self) -> dict[str, Any]:
        return {}

    def _request(self) -> str | None:
        return ledger.read_request(self.goal_id, self.root)

    def _owner(self, goal: Goal, what: str) -> str:
        return f"{goal.goal_id}:{what}"

    def _alive_path(self) -> Path:
        return gstore.goals_dir(self.root) / f"{self.goal_id}.alive"

    def _alive(self) -> contextlib.AbstractContextManager[None]:
        return beating(self._alive_path())

    # --- a host-maker goal: one iteration per check -------------------------------
    def check(self) -> Goal:
        """Judge what the agent host left in the workspace: one sealed iteration, then the verdict.

        The host (not goalkeeper) is the maker, so nothing is started here but
        the checks and the oracle; everything else is sealed as in :meth:`run`.
        """
        with gstore.goal_lock(self.goal_id, self.root):
            goal, problems = audited_goal(self.goal_id, self.root, repair=True)
            if problems:
                self._emit("goal.repaired", goal, problems=problems[:10])
                save_goal(goal, self.root)
            if goal.maker.type != "host":
                raise ConfigError(f"goal {goal.goal_id} has its own maker ({goal.maker.type}); run it with "
                                  f"`goalkeeper goal run {goal.goal_id}`")
            check_rules(goal)
            ws = Path(goal.workspace or os.getcwd()).resolve()
            if goal.state in ("converged", "escalated", "failed", "paused"):
                return goal
            self._mark = self.clock() - seconds_since(goal.updated_at)  # the host worked until now: active time
            self._emit("check.started", iterations=len(goal.history))
            if goal.baseline_at is None:
                self._baseline(goal, ws)
            d = decide(goal, self.clock(), since=self._mark, request=self._request())
            if isinstance(d, StartIteration):
                self._iterate(goal, ws, d)
                d = decide(goal, self.clock(), since=self._mark, request=self._request())
            if isinstance(d, Converged) and not self._still_sealed(goal, ws, d):
                d = decide(goal, self.clock(), since=self._mark)
            if not isinstance(d, StartIteration):
                self._finish(goal, d, self._request())
            # Committed (event, then state): a goal file rebuilt from the log keeps the host's time.
            self._commit(goal, "check.finished", state=goal.state, hint=goal.last_hint())
            return goal

    def baseline(self) -> Goal:
        """Take the baseline now (a host goal's is the tree when the goal is made)."""
        with gstore.goal_lock(self.goal_id, self.root):
            goal, _ = audited_goal(self.goal_id, self.root)
            if goal.baseline_at is None:
                self._baseline(goal, Path(goal.workspace or os.getcwd()).resolve())
            return goal

    # --- the run --------------------------------------------------------------
    def run(self) -> Goal:
        with gstore.goal_lock(self.goal_id, self.root):
            goal, problems = audited_goal(self.goal_id, self.root, repair=True)
            if problems:  # never accepted: rebuilt from the signed log, the phases after it run again
                self._emit("goal.repaired", goal, problems=problems[:10])
                save_goal(goal, self.root)
            if goal.maker.type == "host":
                raise ConfigError(f"goal {goal.goal_id} is made by the agent host; judge its work with "
                                  f"`goalkeeper goal check {goal.goal_id}` (the Stop hook does this)")
            check_rules(goal)
            ws = Path(goal.workspace or os.getcwd()).resolve()
            if not ws.is_dir():
                raise ConfigError(f"goal {goal.goal_id}: workspace {ws} does not exist")
            self._mark = self.clock()
            self._emit("run.started", state=goal.state, iterations=len(goal.history))
            ended = end_leftovers(goal.goal_id)  # what a crashed run of this goal left running
            if ended:
                self._emit("run.leftovers_ended", pids=ended)
            if goal.state == "active" and goal.baseline_at is None:
                self._baseline(goal, ws)
            while True:
                request = self._request()
                d = decide(goal, self.clock(), since=self._mark, request=request)
                if isinstance(d, StartIteration):
                    try:
                        self._iterate(goal, ws, d)
                    except IntegrityError as e:  # the checkpoint store was rewritten: nothing it holds counts
                        self._finish(goal, Escalate("tampering", str(e)), request)
                        break
                    continue
                if isinstance(d, Converged) and not self._still_sealed(goal, ws, d):
                    continue
                self._finish(goal, d, request)
                break
            self._emit("run.finished", state=goal.state)
            return goal

    def _finish(self, goal: Goal, d: object, request: str | None) -> None:
        if isinstance(d, Finished):
            if goal.state == "escalated" and goal.escalation and goal.escalation.triage_id is None:
                escalate(goal, goal.escalation.reason, goal.escalation.detail, self.root)  # crash repair
        elif isinstance(d, Abandoned):
            goal.state = "failed"
            goal.escalation = Escalation(reason="manual", detail=d.detail, at=now_iso())
            self._commit(goal, "goal.abandoned")
            gstore.clear_request(self.goal_id, self.root)
        elif isinstance(d, Paused):
            goal.state = "paused"
            self._commit(goal, "goal.paused", detail=d.detail)
            if request == "pause":
                gstore.clear_request(self.goal_id, self.root)
        elif isinstance(d, Converged):
            goal.state = "converged"
            self._commit(goal, "goal.converged", iteration=d.iteration, spentDollars=goal.spent_dollars())
            triage.resolve_by("goal", goal.goal_id, workspace=goal.workspace, root=self.root,
                              commands=[c.command for c in goal.stopping_conditions])  # close what this answers
        elif isinstance(d, Escalate):
            goal.state = "escalated"
            goal.escalation = Escalation(reason=d.reason, detail=d.detail, at=now_iso())
            self._commit(goal, "goal.escalated", reason=d.reason, detail=d.detail)
            escalate(goal, d.reason, d.detail, self.root)

    def _still_sealed(self, goal: Goal, ws: Path, d: Converged) -> bool:
        """At the end, the workspace must still be the tree that was checked."""
        rec = next(h for h in goal.history if h.iteration == d.iteration)
        if goal.source.get("unsealedBaseline"):
            return True
        now = self.seal(goal, ws).walk()
        if rec.tree_after is None or now.digest == rec.tree_after:
            return True
        self._void(goal, ws, rec, "the workspace changed after the checks passed", _changed(self, goal, rec, now))
        return False

    def _baseline(self, goal: Goal, ws: Path) -> None:
        seal = self.seal(goal, ws)
        with self._alive():
            info = seal.take_baseline(owner=self._owner(goal, "baseline"))
        results = info.pop("results")
        goal.baseline = {k: v for k, v in info.items() if k != "files"}
        goal.baseline_at = now_iso()
        failing = [f"{r.command}: {r.summary}" for r in results if not r.passed]
        if failing and not goal.history:
            goal.source["baselineFailures"] = failing[:10]
        self._commit(goal, "goal.baselined", protectedFiles=info["files"], checkpoint=info["checkpoint"],
                   toolchain=info["toolchain"], failing=failing,
                   sandbox=self._sandbox_mode(goal), checksBox=str(info.get("checksBox") or "none"))

    def _accepted(self, goal: Goal, before: int) -> Checkpoint | None:
        for h in reversed(goal.history):
            if h.iteration < before and h.phase == "done" and not h.rejected and h.checkpoint and h.checkpoint_tree:
                return Checkpoint(h.checkpoint, h.checkpoint_tree)
        cp = goal.baseline.get("checkpoint")
        if cp and goal.baseline.get("sealDigest"):
            return self.seal(goal, Path(goal.workspace or ".")).baseline_checkpoint
        return None

    # --- one iteration, phase by phase ----------------------------------------
    def _iterate(self, goal: Goal, ws: Path, d: StartIteration) -> None:
        if goal.source.get("unsealedBaseline"):
            raise ConfigError(f"goal {goal.goal_id} was started by a goalkeeper without sealed verdicts; "
                              "start it over with `goalkeeper goal new` (its history stays readable)")
        if d.resumed and d.phase != "maker":
            self._charge_crash(goal, goal.history[-1], since=goal.updated_at)
        if d.phase == "maker" and not self._maker_phase(goal, ws, d):
            return
        if self._request():
            return
        rec = goal.history[-1]
        if rec.phase == "conditions":
            self._conditions_phase(goal, ws, rec)
            if self._request():
                return
        if rec.phase == "oracle":
            self._oracle_phase(goal, ws, rec)

    def _maker_phase(self, goal: Goal, ws: Path, d: StartIteration) -> bool:
        """Run the maker; False when the iteration was rejected (and the tree restored)."""
        return self._run_maker(goal, ws, self._open_iteration(goal, ws, d))

    def _open_iteration(self, goal: Goal, ws: Path, d: StartIteration) -> Iteration:
        """Record the iteration (or its restart) before the maker runs, so a crash is visible."""
        if d.resumed:
            rec = goal.history[-1]
            self._charge_crash(goal, rec)
            rec.restarts += 1
            ended = end_leftovers(self._owner(goal, f"maker:{rec.iteration}"))
            if ended:
                self._emit("maker.leftovers_ended", iteration=rec.iteration, pids=ended)
        else:
            if goal.maker.type == "host":  # the host already worked: compare with the last accepted tree
                prev = [h for h in goal.history if h.phase == "done" and not h.rejected and h.source_after]
                digest = prev[-1].source_after if prev else self.seal(goal, ws).baseline_tree.source_digest
            else:
                digest = self.seal(goal, ws).walk().source_digest
            rec = Iteration(iteration=d.number, phase="maker", started_at=now_iso(), hint=d.hint,
                            tree_before=digest)
            goal.history.append(rec)
        rec.phase_started_at = now_iso()
        self._commit(goal, "iteration.started", rec, iteration=rec.iteration, resumed=d.resumed, hint=d.hint)
        return rec

    def _charge_crash(self, goal: Goal, rec: Iteration, since: str | None = None) -> None:
        """A killed phase still took time (and maybe money): charge it against the budget."""
        lost = lost_seconds(self._alive_path(), since or rec.phase_started_at or rec.started_at)
        if lost is None:
            return
        rec.charged_seconds = round(rec.charged_seconds + lost, 3)
        if since is None:
            rec.cost_known = False  # a maker killed mid-call may have spent money we never heard of
        goal.elapsed_seconds = round(goal.elapsed_seconds + lost, 3)
        self._emit("iteration.crash_charged", goal, rec, iteration=rec.iteration, seconds=lost)

    def _sandbox_mode(self, goal: Goal) -> str:
        return sandbox_mode(goal)

    def _maker_policy(self, goal: Goal, ws: Path, rec: Iteration, tmp: Path) -> Policy:
        return maker_policy(goal, ws, owner=self._owner(goal, f"maker:{rec.iteration}"), home=self._home(), tmp=tmp)

    def _run_maker(self, goal: Goal, ws: Path, rec: Iteration) -> bool:
        """Call the maker on an opened iteration, then check the tree it left and checkpoint it."""
        maker = self._maker or get_maker(goal.maker)
        seal = self.seal(goal, ws)
        request = MakerRequest(goal_id=goal.goal_id, objective=goal.objective, hint=rec.hint,
                               iteration=rec.iteration, workspace=ws, timeout=parse_duration(goal.maker.timeout))
        with self._alive(), tempfile.TemporaryDirectory(prefix="goalkeeper-maker-") as tmp, \
                policy(self._maker_policy(goal, ws, rec, Path(tmp))):
            result = maker.make(request)
        end_leftovers(self._owner(goal, f"maker:{rec.iteration}"))  # containment's second line
        with contextlib.suppress(OSError):
            write_log(goal.goal_id, rec.iteration, "maker", result.output_tail or result.summary, self.root)
        after = seal.walk()
        rec.maker_summary = result.summary
        rec.maker_exit_code = result.exit_code
        rec.maker_timed_out = result.timed_out
        rec.maker_spawn_error = result.spawn_error
        rec.cost_dollars = round(rec.cost_dollars + result.cost_dollars, 6)
        rec.maker_cost_dollars = round(rec.maker_cost_dollars + result.cost_dollars, 6)
        rec.cost_known = rec.cost_known and result.cost_known
        rec.tree_after = after.digest
        rec.source_after = after.source_digest
        self._after_maker = after
        if result.spawn_error:  # nothing ran: no checks to pay for, decide() escalates `unrunnable`
            rec.phase, rec.finished_at = "done", now_iso()
            rec.reasons = [f"the maker could not start: {result.spawn_error}"]
            self._commit(goal, "maker.unrunnable", rec, iteration=rec.iteration, error=result.spawn_error)
            return False
        found = seal.findings(after)
        parent = self._accepted(goal, rec.iteration)
        cp = seal.checkpoint(after, f"goalkeeper {goal.goal_id} iteration {rec.iteration}", parent,
                             f"refs/goalkeeper/{goal.goal_id}/{rec.iteration}")
        if cp:
            rec.checkpoint, rec.checkpoint_tree = cp.commit, cp.tree
        if found:
            self._reject(goal, ws, rec, found, after)
            return False
        rec.phase = "conditions"
        self._commit(goal, "maker.finished", rec, iteration=rec.iteration, summary=result.summary,
                   costDollars=result.cost_dollars, exitCode=result.exit_code,
                   treeChanged=after.source_digest != rec.tree_before, checkpoint=rec.checkpoint)
        return True

    def _reject(self, goal: Goal, ws: Path, rec: Iteration, found: list[Finding], now: Tree | None = None) -> None:
        texts = [f.text() for f in found]
        rec.rejected = "; ".join(texts[:12]) + (f"; and {len(texts) - 12} more" if len(texts) > 12 else "")
        rec.findings = [{"kind": f.kind, "path": f.path, "line": f.line, "detail": f.detail} for f in found[:100]]
        rec.next_hint = (
            f"Iteration {rec.iteration} was rejected and its changes reverted: {rec.rejected}. "
            "Do not edit, delete or skip tests, do not touch test/lint/coverage config, CI or ignore files, "
            "the toolchain or goalkeeper's state, and do not add suppressions (noqa, pragma, type: ignore ...); "
            "fix the code under test instead."
            + (f"\nPrevious hint: {rec.hint}" if rec.hint else "")
        )
        rec.oracle_verdict = None
        rec.phase = "done"
        rec.finished_at = now_iso()
        accepted = self._accepted(goal, rec.iteration)
        if accepted is not None:
            self.seal(goal, ws).restore(accepted, now)
        self._commit(goal, "iteration.rejected", rec, iteration=rec.iteration, reasons=texts[:50],
                   findings=rec.findings[:50], costDollars=rec.cost_dollars)

    def _void(self, goal: Goal, ws: Path, rec: Iteration, why: str, changed: list[str]) -> None:
        rec.oracle_verdict = "void"
        rec.reasons = [f"{why} ({', '.join(changed[:10])}); verdict void"]
        rec.findings = [{"kind": "void", "path": p, "line": None, "detail": why} for p in changed[:100]]
        rec.confidence = 0.0
        rec.phase = "done"
        rec.finished_at = rec.finished_at or now_iso()
        if rec.checkpoint and rec.checkpoint_tree:
            self.seal(goal, ws).restore(Checkpoint(rec.checkpoint, rec.checkpoint_tree))
        self._commit(goal, "iteration.voided", rec, iteration=rec.iteration, reason=why, paths=changed[:50])

    def _conditions_phase(self, goal: Goal, ws: Path, rec: Iteration) -> None:
        seal = self.seal(goal, ws)
        pre = seal.walk()
        after_maker = self._after_maker
        if rec.tree_after is not None and pre.digest != rec.tree_after:
            return self._void(goal, ws, rec, "the workspace changed between the maker and the checks",
                              _changed(self, goal, rec, pre))
        if after_maker is not None and after_maker.digest == rec.tree_after and touched(after_maker, pre):
            return self._void(goal, ws, rec, "files were touched between the maker and the checks",
                              touched(after_maker, pre))
        with self._alive():
            run = seal.run_checks(owner=self._owner(goal, f"checks:{rec.iteration}"), tree=pre)
        for i, text in enumerate(run.outputs):
            with contextlib.suppress(OSError):
                write_log(goal.goal_id, rec.iteration, "checks", text, self.root, index=i + 1)
        post = seal.walk()
        changed = [p for p in sorted(set(_diff(pre, post)) | set(touched(pre, post)))
                   if not glob_match(p, goal.guards.check_outputs)]
        tool = seal.toolchain_changes()
        rec.condition_results = run.results
        blame_failures(seal, goal, rec)
        if run.tampered:
            found = [Finding("runner", "", f"the code under test patched the test runner ({t})") for t in run.tampered]
            self._emit("conditions.finished", goal, rec, iteration=rec.iteration, results=_brief(rec))
            return self._reject(goal, ws, rec, found[:20], post)
        if changed or tool:
            self._emit("conditions.finished", goal, rec, iteration=rec.iteration, results=_brief(rec))
            return self._void(goal, ws, rec, "the checks changed the workspace or the toolchain", changed + tool)
        rec.phase = "oracle"
        self._commit(goal, "conditions.finished", rec, iteration=rec.iteration, results=_brief(rec))

    def _oracle_phase(self, goal: Goal, ws: Path, rec: Iteration) -> None:
        oracle = self._oracle or get_oracle(goal.oracle)
        seal = self.seal(goal, ws)
        pre = seal.walk()
        try:
            with self._alive(), policy(Policy(owner=self._owner(goal, f"oracle:{rec.iteration}"), strict=True,
                                              drop_env_prefixes=("GOALKEEPER_",))):
                verdict = oracle.judge(OracleRequest(
                    goal_id=goal.goal_id, objective=goal.objective, iteration=rec.iteration, workspace=ws,
                    condition_results=tuple(rec.condition_results), maker_summary=rec.maker_summary,
                    prompt=goal.oracle.prompt, history=tuple(h.dump() for h in goal.history[:-1]),
                ))
        except GoalkeeperError:
            raise  # misconfiguration (a missing key, an unknown model): the user must fix it
        except Exception as e:  # a judge that breaks is an unsure judge, never a verdict
            verdict = OracleVerdict(False, [f"the oracle failed: {type(e).__name__}: {e}"], None, 0.0,
                                    cost_known=False)
        post = seal.walk()
        rec.cost_dollars = round(rec.cost_dollars + verdict.cost_dollars, 6)
        rec.oracle_cost_dollars = round(rec.oracle_cost_dollars + verdict.cost_dollars, 6)
        rec.cost_known = rec.cost_known and verdict.cost_known
        changed = sorted(set(_diff(pre, post)) | set(touched(pre, post))) + seal.toolchain_changes()
        if changed:
            rec.finished_at = now_iso()
            return self._void(goal, ws, rec, "the oracle changed the working tree", changed)
        converged, notes = combine_verdict([c.passed for c in rec.condition_results], verdict.converged,
                                           verdict.confidence, goal.oracle.min_confidence)
        rec.reasons = [*verdict.reasons, *notes]
        rec.oracle_verdict = "converged" if converged else "not_converged"
        rec.next_hint = verdict.next_hint
        rec.confidence = verdict.confidence
        rec.phase = "done"
        rec.finished_at = now_iso()
        self._commit(goal, "oracle.finished", rec, iteration=rec.iteration, verdict=rec.oracle_verdict,
                   reasons=rec.reasons, confidence=rec.confidence, costDollars=rec.cost_dollars)


def _diff(a: Tree, b: Tree) -> list[str]:
    return sorted(p for p in set(a.files) | set(b.files) if a.files.get(p) != b.files.get(p))


def _changed(loop: GoalLoop, goal: Goal, rec: Iteration, now: Tree) -> list[str]:
    if rec.checkpoint and rec.checkpoint_tree:
        seal = loop.seal(goal, Path(goal.workspace or "."))
        write, delete = seal.store.plan_restore(Checkpoint(rec.checkpoint, rec.checkpoint_tree), now)
        return sorted(set(write) | set(delete)) or ["(unstored files)"]
    return ["(no checkpoint to compare with)"]


def _brief(rec: Iteration) -> list[dict[str, Any]]:
    return [{"type": c.type, "command": c.command, "passed": c.passed, "summary": c.summary, "sealed": c.sealed}
            for c in rec.condition_results]


def run_goal(goal_id: str, **kwargs: Any) -> Goal:
    """Run ``goal_id`` to its next stop; see :class:`GoalLoop` for the injectable parts."""
    return GoalLoop(goal_id, **kwargs).run()


def check_goal(goal_id: str, **kwargs: Any) -> Goal:
    """One sealed iteration of a host-maker goal on what the host left; see :meth:`GoalLoop.check`."""
    return GoalLoop(goal_id, **kwargs).check()
