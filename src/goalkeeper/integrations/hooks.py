"""Claude Code's hooks: Stop judges the host's work, SessionStart announces open goals, SessionEnd flushes.

Claude Code runs a hook command with one JSON object on stdin (``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name``; Stop adds
``stop_hook_active``, SessionStart ``source``, SessionEnd ``reason``) and
reads the command's exit code and stdout:

* Stop: ``{"decision": "block", "reason": ...}`` on stdout with exit 0 keeps
  the agent working, with the reason as its next instruction; no decision
  lets it stop. ``systemMessage`` is shown to the user either way.
* SessionStart: ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
  "additionalContext": ...}}`` adds the text to the session's context.

Loop protection: every block costs the goal one iteration of its budget, so
goalkeeper's budget (not only Claude Code's cap on consecutive blocks) ends
the loop: the check that spends the last iteration escalates and lets the
session stop. A goal with no budget at all (``goal new`` refuses one; older
goals may have it) has nothing to end the loop, so when ``stop_hook_active`` says this stop already follows
a block, the hook lets the agent stop and tells the user how to bound it.

Every hook exits 0 and never blocks on its own failure: a broken input or an
internal error lets the session stop, with a message saying why. Deciding
(:func:`stop_reply`, :func:`start_reply`) is pure; :func:`handle_hook` is the
thin driver that reads the goals and runs ``goal check``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ._errors import describe

__all__ = [
    "EVENTS",
    "MAX_INPUT",
    "CheckOutcome",
    "HookInput",
    "HookReply",
    "bound_to",
    "bounded",
    "handle_hook",
    "in_workspace",
    "parse_input",
    "start_reply",
    "stop_reply",
]

EVENTS = ("stop", "session-start", "session-end")
MAX_INPUT = 1 << 20  # hook JSON is small; a flood on stdin must not eat memory
_REASON_CHARS = 6000
_HINT_CHARS = 3000


@dataclass(frozen=True, slots=True)
class HookInput:
    """The fields of Claude Code's hook JSON that goalkeeper uses."""

    event: str
    session_id: str | None = None
    cwd: Path | None = None
    stop_hook_active: bool = False
    transcript_path: str | None = None
    source: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class HookReply:
    """What the hook prints (a JSON object, or nothing) and its exit code (always 0)."""

    output: dict[str, Any] | None = None
    exit_code: int = 0

    def text(self) -> str:
        return "" if self.output is None else json.dumps(self.output, ensure_ascii=True)


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """One bound goal after the Stop hook's ``goal check``: its verdict, or why it could not be checked."""

    goal_id: str
    objective: str
    verdict: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    bounded: bool = True  # an iteration or time budget ends the Stop loop


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def parse_input(raw: bytes | str, event: str) -> HookInput:
    """Claude Code's hook JSON; ``ConfigError`` naming what is wrong with it."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_INPUT:
            raise ConfigError(f"the hook input is larger than {MAX_INPUT} bytes; it is not Claude Code's hook JSON")
        raw = raw.decode("utf-8", errors="replace")
    if not raw.strip():
        raise ConfigError("no hook input on stdin; Claude Code sends one JSON object (session_id, cwd, ...)")
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise ConfigError(f"the hook input is not JSON ({e}); Claude Code sends one JSON object") from None
    except RecursionError:  # nesting past the parser's stack: not what Claude Code sends either
        raise ConfigError("the hook input is not JSON Claude Code sends (nested too deeply to read); "
                          "Claude Code sends one flat JSON object") from None
    if not isinstance(data, dict):
        raise ConfigError(f"the hook input is a JSON {type(data).__name__}, not an object")
    cwd = _text(data.get("cwd"))
    return HookInput(
        event=_text(data.get("hook_event_name")) or event,
        session_id=_text(data.get("session_id")),
        cwd=Path(cwd) if cwd else None,
        stop_hook_active=data.get("stop_hook_active") is True,
        transcript_path=_text(data.get("transcript_path")),
        source=_text(data.get("source")),
        reason=_text(data.get("reason")),
    )


def in_workspace(cwd: Path, workspace: str | None) -> bool:
    """``cwd`` is the goal's workspace or a folder inside it (links resolved on both sides)."""
    if not workspace:
        return False
    try:
        Path(cwd).resolve().relative_to(Path(workspace).resolve())
    except (ValueError, OSError):
        return False
    return True


def bound_to(goal: Any, cwd: Path, session_id: str | None) -> bool:
    """The Stop hook acts on ``goal``: an active host-maker goal of this workspace (and session, if it has one)."""
    if goal.maker.type != "host" or goal.state != "active" or not in_workspace(cwd, goal.workspace):
        return False
    wanted = goal.source.get("session")
    return not wanted or wanted == session_id


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 20].rstrip() + " [... cut ...]"


def _not_done(o: CheckOutcome) -> str:
    v = o.verdict
    budget = f" of {v['maxIterations']}" if v.get("maxIterations") else ""
    lines = [f"goalkeeper: goal {o.goal_id} ({o.objective!r}) is not done: iteration {v.get('iteration')}{budget} "
             "was judged on the workspace as you left it."]
    if v.get("failing"):
        lines.append("Failing checks:")
        lines += [f"  - {_clip(str(f), 400)}" for f in v["failing"][:10]]
    if v.get("findings"):
        lines.append("Rejected, and your changes since the last accepted iteration were reverted:")
        lines += [f"  - {_clip(str(f), 400)}" for f in v["findings"][:10]]
    if v.get("nextHint"):
        lines.append("Next: " + _clip(str(v["nextHint"]), _HINT_CHARS))
    lines.append("Keep working on the objective, then stop again: goalkeeper runs the stopping conditions itself "
                 "at every stop. Tests, test/lint/coverage configuration, CI files and goalkeeper's state are "
                 "sealed; changing them rejects the iteration.")
    return "\n".join(lines)


def bounded(goal: Any) -> bool:
    """The goal's own budget ends a Stop loop. ``goal new`` refuses a goal nothing bounds (a dollars-only
    budget counts only where checks cost money), so this guards goals made before that rule."""
    b = goal.budget
    return b.max_iterations is not None or b.max_duration is not None or b.max_dollars is not None


def stop_reply(outcomes: Sequence[CheckOutcome], notes: Sequence[str] = (),
               stop_hook_active: bool = False) -> HookReply:
    """Block while a bound goal is active after its check; otherwise allow, telling the user what happened.

    ``stop_hook_active`` (this stop follows a block) lets an unbounded goal's
    session stop: without a budget nothing else would end the loop.
    """
    reasons: list[str] = []
    notes = list(notes)
    for o in outcomes:
        v = o.verdict
        state = v.get("state")
        if o.error is not None:
            notes.append(f"goalkeeper could not check goal {o.goal_id}: {o.error}; not blocking the stop")
        elif state == "active" and stop_hook_active and not o.bounded:
            notes.append(f"goalkeeper: goal {o.goal_id} is not done, but it has no budget, so "
                         "goalkeeper does not hold the session in a Stop loop; judge it with `goalkeeper goal check "
                         f"{o.goal_id}`, or make goals with a budget (`goal new ... --max-iterations 15`)")
        elif state == "active":
            reasons.append(_not_done(o))
        elif state == "converged":
            notes.append(f"goalkeeper: goal {o.goal_id} converged at iteration {v.get('iteration')}: every stopping "
                         "condition passed on a sealed tree")
        elif state == "escalated":
            tid = v.get("triageId")
            where = f"; triage item {tid}: `goalkeeper triage show {tid}`" if tid else ""
            notes.append(f"goalkeeper: goal {o.goal_id} escalated ({v.get('reason')}): {v.get('detail') or ''}"
                         f"{where}".replace(": ;", ";"))
        elif state:
            notes.append(f"goalkeeper: goal {o.goal_id} is {state}; not blocking the stop")
    out: dict[str, Any] = {}
    if reasons:
        out["decision"] = "block"
        out["reason"] = _clip("\n\n".join(reasons), _REASON_CHARS)
    if notes:
        out["systemMessage"] = "\n".join(notes)
    return HookReply(out or None)


def start_reply(goals: Sequence[Any], cwd: Path, session_id: str | None) -> HookReply:
    """The open goals of this workspace as context for the new (or resumed) session."""
    shown = [g for g in goals if g.state in ("active", "paused") and in_workspace(cwd, g.workspace)]
    if not shown:
        return HookReply(None)
    lines = [f"goalkeeper: {len(shown)} open goal(s) in this workspace."]
    for g in shown:
        budget = f"/{g.budget.max_iterations}" if g.budget.max_iterations else ""
        how = ""
        if g.maker.type == "host":
            other = g.source.get("session") and g.source.get("session") != session_id
            how = (" (bound to another agent session)" if other
                   else " (you are its maker: the Stop hook runs its checks when you stop)")
        lines.append(f"- {g.goal_id} [{g.state}, iteration {len(g.history)}{budget}] {g.objective}{how}")
        hint = g.last_hint()
        if hint:
            lines.append("  last hint: " + _clip(hint.replace("\n", " "), 800))
    lines.append("Details: `goalkeeper goal status ID`; the triage inbox: `goalkeeper triage list`.")
    return HookReply({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                             "additionalContext": "\n".join(lines)}})


# --- the driver -----------------------------------------------------------------------

@contextlib.contextmanager
def _inside(cwd: Path | None) -> Iterator[None]:
    """Find the state home from the session's folder, as the CLI run there would."""
    before = os.getcwd()
    moved = cwd is not None and cwd.is_dir()
    if moved:
        os.chdir(cwd)  # type: ignore[arg-type]
    try:
        yield
    finally:
        if moved:
            os.chdir(before)


def _goals(notes: list[str], repaired: set[str] | None = None) -> list[Any]:
    """Every goal in the home, oldest first. A damaged goal file is rebuilt from its signed log (as
    ``goal check`` would) rather than skipped: a host must not escape its goal by breaking the file."""
    from ..convergence import load_goal
    from ..convergence.persist import audited_goal
    from ..errors import CorruptStateError
    from ..store import goals as gstore
    from ..store.ids import is_id

    out = []
    ids = gstore.list_goal_ids()
    for gid in ids:
        try:
            out.append(load_goal(gid))
            continue
        except CorruptStateError as e:
            problem = describe(e)
        try:
            with gstore.goal_lock(gid):
                goal, _ = audited_goal(gid, repair=True)
        except Exception as e:
            notes.append(f"goalkeeper: goal {gid} is damaged and could not be rebuilt ({describe(e)}); "
                         "it was not checked")
            continue
        out.append(goal)
        if repaired is not None:
            repaired.add(gid)
        notes.append(f"goalkeeper: goal {gid} was damaged ({problem}); it was rebuilt from its signed event log")
    with contextlib.suppress(OSError):
        for p in sorted(gstore.goals_dir().glob("goal-*.events.jsonl")):
            gid = p.name.removesuffix(".events.jsonl")
            if is_id("goal", gid) and gid not in ids:
                notes.append(f"goalkeeper: goal {gid} has a signed event log but its goal file is gone; "
                             "it was not checked (see `goalkeeper goal list`)")
    return sorted(out, key=lambda g: g.created_at or "")


def _stop(inp: HookInput, cwd: Path) -> HookReply:
    from ..convergence import check_goal
    from ..convergence.verdict import check_verdict

    notes: list[str] = []
    outcomes = []
    for g in _goals(notes):
        if not bound_to(g, cwd, inp.session_id):
            continue
        try:
            checked = check_goal(g.goal_id)
            outcomes.append(CheckOutcome(g.goal_id, g.objective, check_verdict(checked), bounded=bounded(checked)))
        except Exception as e:  # one goal that cannot be judged must not trap the session
            outcomes.append(CheckOutcome(g.goal_id, g.objective, error=describe(e)))
    return stop_reply(outcomes, notes, stop_hook_active=inp.stop_hook_active)


def _session_boundary(inp: HookInput, cwd: Path, ending: bool) -> list[str]:
    """Repair what an interrupted check left and stamp the boundary on each bound host goal.

    The host's active time is measured from the goal's last update, so time
    between sessions must not count: the start stamps the goal, the end
    charges the time since the last update and stamps it.
    """
    from ..convergence.persist import audited_goal, commit_goal
    from ..errors import LockedError
    from ..store import goals as gstore
    from ..store.home import seconds_since

    problems: list[str] = []
    rebuilt: set[str] = set()
    for g in _goals(problems, rebuilt):
        if not bound_to(g, cwd, inp.session_id):
            continue
        try:
            with gstore.goal_lock(g.goal_id):
                goal, repaired = audited_goal(g.goal_id, repair=True)
                if goal.state != "active":
                    continue
                fields: dict[str, Any] = {"session": inp.session_id,
                                          "repaired": g.goal_id in rebuilt or bool(repaired)}
                if ending:
                    charged = seconds_since(goal.updated_at)
                    goal.elapsed_seconds = round(goal.elapsed_seconds + charged, 3)
                    fields["chargedSeconds"] = round(charged, 3)
                commit_goal(goal, "host.session_ended" if ending else "host.session_started", None, **fields)
        except LockedError:
            continue  # a check is running: it writes its own state, atomically
        except Exception as e:
            problems.append(f"{g.goal_id}: {describe(e)}")
    return problems


def handle_hook(event: str, raw: bytes | str) -> HookReply:
    """Answer one Claude Code hook ``event`` (stop, session-start, session-end) given its stdin."""
    if event not in EVENTS:
        raise ConfigError(f"unknown hook event {event!r} (known: {', '.join(EVENTS)})")
    try:
        inp = parse_input(raw, event)
    except ConfigError as e:
        if event == "stop":
            return HookReply({"systemMessage": f"goalkeeper Stop hook: {e}; not blocking the stop"})
        return HookReply(None)
    cwd = inp.cwd if inp.cwd is not None else Path.cwd()
    try:
        with _inside(inp.cwd):
            if event == "stop":
                return _stop(inp, cwd)
            if event == "session-start":
                _session_boundary(inp, cwd, ending=False)
                return start_reply(_goals([]), cwd, inp.session_id)
            _session_boundary(inp, cwd, ending=True)
            return HookReply(None)
    except Exception as e:  # an internal error must never trap the user in the session
        if os.environ.get("GOALKEEPER_DEBUG"):
            raise
        return HookReply({"systemMessage": f"goalkeeper {event} hook failed: {describe(e)}"
                          + ("; not blocking the stop" if event == "stop" else "")})
