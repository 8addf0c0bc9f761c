"""A goal as one HTML page: outcome, iteration timeline, cost per iteration, checks and diffs.

:func:`render_goal` is pure: it takes the goal, its event log and the diff
stats per iteration and returns the page. :func:`goal_report` is the thin
driver that reads them from the store (and the goal's private checkpoint
chain, for the diff stats; a goal without checkpoints shows none).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..convergence.goal import Goal, Iteration
from ._page import Bar, bar_chart, esc, page, table, timeline

__all__ = ["DiffStat", "PhaseTimes", "goal_report", "phase_times", "render_goal"]

_STATE_CSS = {"converged": "ok", "escalated": "bad", "failed": "bad", "paused": "warn", "active": "info"}
_PHASE_COLOUR = {"maker": "#0969da", "checks": "#8250df", "oracle": "#bf8700"}


@dataclass(frozen=True, slots=True)
class DiffStat:
    files: int
    added: int
    removed: int


@dataclass(frozen=True, slots=True)
class PhaseTimes:
    """Seconds from the iteration's start to each phase (None: that phase did not happen)."""

    start: float
    maker: float | None = None
    checks: float | None = None
    oracle: float | None = None


def _ts(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def phase_times(events: Sequence[Mapping[str, Any]]) -> dict[int, PhaseTimes]:
    """iteration -> when its maker, checks and oracle ran, from the event log's timestamps.

    The log is the record of what happened; an iteration restarted after a
    crash counts from its last start. Events with no readable time are skipped.
    """
    t0: datetime | None = None
    marks: dict[int, dict[str, datetime]] = {}
    for ev in events:
        at = _ts(ev.get("ts"))
        n = ev.get("iteration")
        if at is None:
            continue
        t0 = t0 or at
        if not isinstance(n, int) or isinstance(n, bool):
            continue
        kind = ev.get("event")
        m = marks.setdefault(n, {})
        if kind == "iteration.started":
            m.clear()
            m["start"] = at
        elif kind in ("maker.finished", "maker.unrunnable", "iteration.rejected", "iteration.voided"):
            m["maker"] = at
        elif kind == "conditions.finished":
            m["checks"] = at
        elif kind == "oracle.finished":
            m["oracle"] = at
    out: dict[int, PhaseTimes] = {}
    for n, m in marks.items():
        start = m.get("start")
        if start is None or t0 is None:
            continue

        rel = {k: max(0.0, (v - start).total_seconds()) for k, v in m.items()}
        out[n] = PhaseTimes((start - t0).total_seconds(), rel.get("maker"), rel.get("checks"), rel.get("oracle"))
    return out


def _durations(p: PhaseTimes | None) -> tuple[float | None, float | None, float | None]:
    if p is None:
        return None, None, None
    maker = p.maker
    checks = p.checks - p.maker if p.checks is not None and p.maker is not None else None
    oracle = p.oracle - p.checks if p.oracle is not None and p.checks is not None else None
    return maker, checks, oracle


def _secs(v: float | None) -> str:
    return "–" if v is None else (f"{v:.2f} s" if v < 10 else f"{v:.0f} s")


def _verdict(it: Iteration) -> str:
    if it.rejected:
        return "<span class=\"badge bad\">rejected</span>"
    if it.maker_spawn_error:
        return "<span class=\"badge bad\">maker could not start</span>"
    v = it.oracle_verdict
    if v is None:
        return f"<span class=\"badge info\">{esc(it.phase)}</span>"
    return f"<span class=\"badge {'ok' if v == 'converged' else 'warn' if v == 'void' else 'bad'}\">{esc(v)}</span>"


def _checks(it: Iteration) -> str:
    if not it.condition_results:
        return "–"
    return "<br>".join(
        f"<span class=\"{'pass' if r.passed else 'fail'}\">{'✔' if r.passed else '✘'}</span> <code>{esc(r.command)}</code>"
        for r in it.condition_results)


def _section(name: str, title: str, inner: str) -> str:
    return f"<section data-section=\"{esc(name)}\"><h2>{esc(title)}</h2>{inner}</section>"


def render_goal(goal: Goal, events: Sequence[Mapping[str, Any]],
                diffs: Mapping[int, DiffStat] | None = None) -> str:
    """The report page of ``goal`` (pure)."""
    diffs = diffs or {}
    times = phase_times(events)
    state = goal.state
    b = goal.budget
    spent = goal.spent_dollars()
    head = (f"<h1>goal <code id=\"goal-id\">{esc(goal.goal_id)}</code> "
            f"<span id=\"outcome\" class=\"badge {_STATE_CSS.get(state, 'info')}\">{esc(state)}</span></h1>"
            f"<p class=\"sub\">{esc(goal.objective)}</p>")
    kv = [("iterations", f"{len(goal.history)}" + (f" of {b.max_iterations}" if b.max_iterations else "")),
          ("spent", f"${spent:.2f}" + (f" of ${b.max_dollars:.2f}" if b.max_dollars is not None else "")),
          ("active time", _secs(goal.elapsed_seconds)),
          ("maker", goal.maker.type + (f": {' '.join(goal.maker.argv)}" if goal.maker.argv else "")),
          ("oracle", goal.oracle.model), ("workspace", goal.workspace or "(current directory)"),
          ("created", goal.created_at or "?"), ("updated", goal.updated_at or "?")]
    if goal.escalation is not None:
        e = goal.escalation
        kv.insert(0, ("escalated", f"{e.reason}: {e.detail}" + (f" (triage {e.triage_id})" if e.triage_id else "")))
    summary = "<div class=\"card\"><dl class=\"kv\">" + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in kv) + "</dl></div>"
    hint = goal.last_hint()
    if hint and state != "converged":
        summary += f"<div class=\"card\"><b>next hint</b><pre>{esc(hint)}</pre></div>"

    inferred = bool(goal.source.get("inferred"))
    conds = table(["type", "command", "threshold"], [
        (esc(c.type), f"<code>{esc(c.command if isinstance(c.command, str) else ' '.join(c.command))}</code>"
         + (" <span class=\"badge info\">inferred</span>" if inferred else ""), esc(c.threshold or ""))
        for c in goal.stopping_conditions], raw=True)

    rows = []
    strips = []
    for it in goal.history:
        maker, checks, oracle = _durations(times.get(it.iteration))
        d = diffs.get(it.iteration)
        diff = f"{d.files} file(s), <span class=\"pass\">+{d.added}</span> <span class=\"fail\">−{d.removed}</span>" \
            if d else "–"
        rows.append((str(it.iteration), _verdict(it), esc(_secs(maker)), esc(_secs(checks)), esc(_secs(oracle)),
                     esc(f"${it.cost_dollars:.4f}" + ("" if it.cost_known else " (some unknown)")), diff,
                     _checks(it)))
        p = times.get(it.iteration)
        if p is not None:
            segs = []
            cursor = p.start
            for name, length in (("maker", maker), ("checks", checks), ("oracle", oracle)):
                if length is not None:
                    segs.append((cursor, length, _PHASE_COLOUR[name], f"iteration {it.iteration} {name}: "
                                 f"{_secs(length)}"))
                    cursor += length
            strips.append((f"iteration {it.iteration}", segs))
    iters = table(["#", "verdict", "maker", "checks", "oracle", "cost", "diff", "conditions"], rows, raw=True) \
        if rows else "<p class=\"sub\">no iteration has run yet</p>"
    legend = " ".join(f"<span class=\"badge\" style=\"background:{c}\">{n}</span>" for n, c in _PHASE_COLOUR.items())
    cost = bar_chart([Bar(f"iteration {it.iteration}", it.cost_dollars, title=f"maker ${it.maker_cost_dollars:.4f}, "
                          f"oracle ${it.oracle_cost_dollars:.4f}") for it in goal.history], unit="$")

    details = []
    for it in goal.history:
        parts = []
        for r in it.condition_results:
            state_txt = "passed" if r.passed else "failed"
            parts.append(f"<p><code>{esc(r.command)}</code>: <b class=\"{'pass' if r.passed else 'fail'}\">"
                         f"{state_txt}</b> {esc(r.summary)} (exit {esc(r.exit_code)}, {esc(_secs(r.duration_seconds))}"
                         f"{', sealed' if r.sealed else ''})</p>")
            if r.output_tail and not r.passed:
                parts.append(f"<pre>{esc(r.output_tail)}</pre>")
        for f in it.findings:
            parts.append(f"<p class=\"fail\">{esc(f.get('text') or f)}</p>")
        if it.maker_summary:
            parts.append(f"<p><b>maker</b></p><pre>{esc(it.maker_summary)}</pre>")
        if it.reasons:
            parts.append("<p><b>oracle</b></p><ul>" + "".join(f"<li>{esc(r)}</li>" for r in it.reasons) + "</ul>")
        details.append(f"<details><summary>iteration {it.iteration}</summary>{''.join(parts) or '–'}</details>")

    body = (head + _section("summary", "Outcome", summary)
            + _section("conditions", "Stopping conditions" + (" (inferred from the workspace)" if inferred else ""),
                       conds)
            + _section("iterations", "Iterations", iters)
            + _section("timeline", "Timeline", f"<p>{legend}</p>" + timeline(strips))
            + _section("cost", "Cost per iteration", cost)
            + _section("details", "Checks and verdicts", "".join(details) or "<p class=\"sub\">none yet</p>"))
    return page(f"goalkeeper goal {goal.goal_id}: {state}", body)


def _diff_stats(goal: Goal, root: Path | None) -> dict[int, DiffStat]:
    """Lines added and removed per iteration, from the goal's private checkpoint chain."""
    from ..convergence.checkpoints import Checkpoint
    from ..convergence.seal import Seal
    from ..errors import GoalkeeperError
    from ..store.home import home

    try:
        seal = Seal(goal, Path(goal.workspace or "."), (root or home()).resolve())
        prev = seal.baseline_checkpoint
    except (GoalkeeperError, OSError, ValueError):
        return {}
    out: dict[int, DiffStat] = {}
    for it in goal.history:
        if not (it.checkpoint and it.checkpoint_tree):
            continue
        cur = Checkpoint(it.checkpoint, it.checkpoint_tree)
        if prev is not None:
            with contextlib.suppress(GoalkeeperError, OSError, ValueError):
                out[it.iteration] = _count(seal.store.diff(prev, cur))
        if not it.rejected:
            prev = cur  # a rejected iteration was rolled back: the next one starts from the last accepted
    return out


def _count(diff: str) -> DiffStat:
    files = added = removed = 0
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            files += 1
        elif line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return DiffStat(files, added, removed)


def goal_report(goal_id: str, root: Path | None = None) -> str:
    """The report page of a stored goal (reads its state, events and checkpoints)."""
    from ..convergence.persist import load_goal
    from ..errors import CorruptStateError
    from ..store.goals import read_events

    goal = load_goal(goal_id, root)
    try:
        events = read_events(goal_id, root)
    except (CorruptStateError, OSError):
        events = []  # the page still shows the state; the timeline is left empty
    return render_goal(goal, events, _diff_stats(goal, root))
