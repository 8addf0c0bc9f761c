"""The thin driver: ask :func:`decide`, carry out one phase, persist, repeat.

Every phase (maker, conditions, oracle) ends with an atomic write of the goal
and an event in ``<goalId>.events.jsonl``, so ``kill -9`` at any instant loses
at most the phase in flight. Pause/abandon requests are obeyed at phase
boundaries. Only one loop per goal runs at a time (an flock on the goal).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..adapters._proc import Runner, run_argv
from ..adapters.makers import Maker, MakerRequest, get_maker
from ..errors import ConfigError, GoalkeeperError
from ..store import goals as gstore
from ..store.atomic import read_json, write_json_atomic
from ..store.home import home, now_iso
from .conditions import run_condition
from .decide import Abandoned, Converged, Escalate, Finished, Paused, StartIteration, decide
from .goal import Escalation, Goal, Iteration, check_rules, parse_duration
from .lifecycle import checkpoint_ref, escalate
from .oracle import Oracle, OracleRequest, OracleVerdict, get_oracle
from .persist import load_goal, save_goal
from .worktree import (
    Snapshot,
    checkpoint,
    count_markers,
    full_snapshot,
    glob_match,
    marker_increases,
    protected_changes,
)
from .worktree import restore as restore_tree
from .worktree import snapshot as take_snapshot

__all__ = ["EventSink", "GoalLoop", "run_goal"]

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

    # --- plumbing -------------------------------------------------------------
    def _emit(self, event: str, **fields: Any) -> None:
        rec = gstore.append_event(self.goal_id, event, self.root, **fields)
        if self.on_event is not None:
            self.on_event(rec)

    def _save(self, goal: Goal) -> None:
        now = self.clock()
        if goal.state == "active":
            goal.elapsed_seconds = round(goal.elapsed_seconds + max(0.0, now - self._mark), 3)
        self._mark = now
        save_goal(goal, self.root)

    def _home(self) -> Path:
        return self.root or home()

    def _snap(self, ws: Path) -> Snapshot:
        return take_snapshot(ws, exclude=[self._home()])

    def _before_path(self) -> Path:
        return gstore.goals_dir(self.root) / f"{self.goal_id}.before.json"

    def _request(self) -> str | None:
        return gstore.read_request(self.goal_id, self.root)

    # --- the run --------------------------------------------------------------
    def run(self) -> Goal:
        with gstore.goal_lock(self.goal_id, self.root):
            goal = load_goal(self.goal_id, self.root)
            check_rules(goal)
            ws = Path(goal.workspace or os.getcwd()).resolve()
            if not ws.is_dir():
                raise ConfigError(f"goal {goal.goal_id}: workspace {ws} does not exist")
            self._mark = self.clock()
            self._emit("run.started", state=goal.state, iterations=len(goal.history))
            if goal.state == "active" and goal.baseline_at is None:
                self._baseline(goal, ws)
            while True:
                request = self._request()
                d = decide(goal, self.clock(), since=self._mark, request=request)
                if isinstance(d, StartIteration):
                    self._iterate(goal, ws, d)
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
            self._save(goal)
            gstore.clear_request(self.goal_id, self.root)
            self._emit("goal.abandoned")
        elif isinstance(d, Paused):
            if goal.state != "paused":
                goal.state = "paused"
                self._save(goal)
            if request == "pause":
                gstore.clear_request(self.goal_id, self.root)
            self._emit("goal.paused", detail=d.detail)
        elif isinstance(d, Converged):
            goal.state = "converged"
            self._save(goal)
            self._emit("goal.converged", iteration=d.iteration, spentDollars=goal.spent_dollars())
        elif isinstance(d, Escalate):
            self._save(goal)
            escalate(goal, d.reason, d.detail, self.root)
            esc = goal.escalation
            self._emit("goal.escalated", reason=d.reason, detail=d.detail, triageId=esc.triage_id if esc else None)

    def _baseline(self, goal: Goal, ws: Path) -> None:
        snap = self._snap(ws)
        globs = goal.guards.protected_paths
        goal.protected_baseline = {p: h for p, h in snap.files.items() if glob_match(p, globs)}
        goal.marker_baseline = {p: n for p in snap.files if (n := count_markers(ws / p))}
        ref = None
        if goal.guards.checkpoint:
            ref = checkpoint(ws, checkpoint_ref(goal.goal_id, 0), f"goalkeeper {goal.goal_id} baseline",
                             exclude=[self._home()])
        goal.baseline_at = now_iso()
        self._save(goal)
        self._emit("goal.baselined", protectedFiles=len(goal.protected_baseline), checkpoint=ref)

    def _accepted_ref(self, goal: Goal, before: int) -> str:
        for h in reversed(goal.history):
            if h.iteration < before and h.phase == "done" and not h.rejected and h.checkpoint:
                return checkpoint_ref(goal.goal_id, h.iteration)
        return checkpoint_ref(goal.goal_id, 0)

    # --- one iteration, phase by phase ----------------------------------------
    def _iterate(self, goal: Goal, ws: Path, d: StartIteration) -> None:
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

    def _conditions_phase(self, goal: Goal, ws: Path, rec: Iteration) -> None:
        rec.condition_results = [run_condition(c, ws, self.runner) for c in goal.stopping_conditions]
        rec.phase = "oracle"
        self._save(goal)
        self._emit("conditions.finished", iteration=rec.iteration, results=[
            {"type": c.type, "command": c.command, "passed": c.passed, "summary": c.summary}
            for c in rec.condition_results
        ])

    def _maker_phase(self, goal: Goal, ws: Path, d: StartIteration) -> bool:
        """Run the maker; False when the iteration was rejected (and the tree restored)."""
        rec, before = self._open_iteration(goal, ws, d)
        return self._run_maker(goal, ws, rec, before)

    def _before_snapshot(self, ws: Path, rec: Iteration) -> Snapshot:
        """The tree as it was before ``rec``'s maker first ran (re-hashed if that record is gone)."""
        try:
            return Snapshot(rec.tree_before or "", read_json(self._before_path()))
        except (FileNotFoundError, ValueError):
            return self._snap(ws)

    def _open_iteration(self, goal: Goal, ws: Path, d: StartIteration) -> tuple[Iteration, Snapshot]:
        """Record the iteration (or its restart) before the maker runs, so a crash is visible."""
        if d.resumed:
            rec = goal.history[-1]
            rec.restarts += 1
            before = self._before_snapshot(ws, rec)
        else:
            before = self._snap(ws)
            write_json_atomic(self._before_path(), dict(before.files))
            rec = Iteration(iteration=d.number, phase="maker", started_at=now_iso(), hint=d.hint,
                            tree_before=before.digest)
            goal.history.append(rec)
        self._save(goal)
        self._emit("iteration.started", iteration=rec.iteration, resumed=d.resumed, hint=d.hint)
        return rec, before

    def _run_maker(self, goal: Goal, ws: Path, rec: Iteration, before: Snapshot) -> bool:
        """Call the maker on an opened iteration, then check guards and checkpoint the tree."""
        maker = self._maker or get_maker(goal.maker)
        result = maker.make(MakerRequest(
            goal_id=goal.goal_id, objective=goal.objective, hint=rec.hint, iteration=rec.iteration,
            workspace=ws, timeout=parse_duration(goal.maker.timeout),
        ))
        after = self._snap(ws)
        rec.maker_summary = result.summary
        rec.maker_exit_code = result.exit_code
        rec.maker_timed_out = result.timed_out
        rec.cost_dollars = round(rec.cost_dollars + result.cost_dollars, 6)
        rec.maker_cost_dollars = round(rec.maker_cost_dollars + result.cost_dollars, 6)
        rec.cost_known = rec.cost_known and result.cost_known
        rec.tree_after = after.digest
        violations = protected_changes(
            goal.protected_baseline, after, goal.guards.protected_paths, before
        ) + marker_increases(
            ws, before, after, goal.marker_baseline
        )
        if goal.guards.checkpoint:
            rec.checkpoint = checkpoint(
                ws, checkpoint_ref(goal.goal_id, rec.iteration), f"goalkeeper {goal.goal_id} iteration {rec.iteration}",
                parent_ref=self._accepted_ref(goal, rec.iteration), exclude=[self._home()],
            )
        if violations:
            rec.rejected = "; ".join(violations)
            rec.next_hint = (
                f"Iteration {rec.iteration} was rejected and its changes reverted: {rec.rejected}. "
                "Do not delete, edit or skip tests, CI or config files, and do not add skip/noqa "
                "markers; fix the code under test instead."
                + (f"\nPrevious hint: {rec.hint}" if rec.hint else "")
            )
            rec.oracle_verdict = None
            rec.phase = "done"
            rec.finished_at = now_iso()
            if rec.checkpoint:
                restore_tree(ws, self._accepted_ref(goal, rec.iteration), exclude=[self._home()])
            for rel in set(after.files) - set(before.files):  # e.g. an added, gitignored conftest.py
                with contextlib.suppress(OSError):
                    (ws / rel).unlink()
            self._save(goal)
            self._emit("iteration.rejected", iteration=rec.iteration, reasons=violations,
                       costDollars=rec.cost_dollars)
            return False
        rec.phase = "conditions"
        self._save(goal)
        self._emit("maker.finished", iteration=rec.iteration, summary=result.summary,
                   costDollars=result.cost_dollars, exitCode=result.exit_code,
                   treeChanged=after.digest != before.digest, checkpoint=rec.checkpoint)
        return True

    def _oracle_phase(self, goal: Goal, ws: Path, rec: Iteration) -> None:
        oracle = self._oracle or get_oracle(goal.oracle)
        pre = full_snapshot(ws, exclude=[self._home()])
        try:
            verdict = oracle.judge(OracleRequest(
                goal_id=goal.goal_id, objective=goal.objective, iteration=rec.iteration, workspace=ws,
                condition_results=tuple(rec.condition_results), maker_summary=rec.maker_summary,
                prompt=goal.oracle.prompt,
                history=tuple(h.dump() for h in goal.history[:-1]),
            ))
        except GoalkeeperError:
            raise  # misconfiguration (a missing key, an unknown model): the user must fix it
        except Exception as e:  # a judge that breaks is an unsure judge, never a verdict
            verdict = OracleVerdict(False, [f"the oracle failed: {type(e).__name__}: {e}"], None, 0.0,
                                    cost_known=False)
        post = full_snapshot(ws, exclude=[self._home()])
        rec.cost_dollars = round(rec.cost_dollars + verdict.cost_dollars, 6)
        rec.oracle_cost_dollars = round(rec.oracle_cost_dollars + verdict.cost_dollars, 6)
        rec.cost_known = rec.cost_known and verdict.cost_known
        if pre.digest != post.digest:
            changed = sorted(
                p for p in set(pre.files) | set(post.files) if pre.files.get(p) != post.files.get(p)
            )
            rec.oracle_verdict = "void"
            rec.reasons = [f"the oracle changed the working tree ({', '.join(changed[:10])}); verdict void"]
            rec.confidence = 0.0
            if rec.checkpoint:
                restore_tree(ws, checkpoint_ref(goal.goal_id, rec.iteration), exclude=[self._home()])
        else:
            all_passed = all(c.passed for c in rec.condition_results)
            sure = verdict.confidence >= goal.oracle.min_confidence
            converged = verdict.converged and all_passed and sure
            rec.reasons = list(verdict.reasons)
            if verdict.converged and not all_passed:
                rec.reasons.append("the oracle said converged but not every condition passed; not converged")
            elif verdict.converged and not sure:
                rec.reasons.append(
                    f"the oracle said converged with confidence {verdict.confidence:.2f}, below "
                    f"minConfidence {goal.oracle.min_confidence:.2f}; not converged"
                )
            rec.oracle_verdict = "converged" if converged else "not_converged"
            rec.next_hint = verdict.next_hint
            rec.confidence = verdict.confidence
        rec.phase = "done"
        rec.finished_at = now_iso()
        self._save(goal)
        self._emit("oracle.finished", iteration=rec.iteration, verdict=rec.oracle_verdict,
                   reasons=rec.reasons, confidence=rec.confidence, costDollars=rec.cost_dollars)


def run_goal(goal_id: str, **kwargs: Any) -> Goal:
    """Run ``goal_id`` to its next stop; see :class:`GoalLoop` for the injectable parts."""
    return GoalLoop(goal_id, **kwargs).run()
