"""Escalation reports: JSON for tools, Markdown for the human in the triage inbox."""

from __future__ import annotations

from pathlib import Path

from goalkeeper.runtime.ledger import Ledger
from goalkeeper.runtime.machine import Escalate, Options
from goalkeeper.runtime.report import build_report, file_escalation, render_markdown
from goalkeeper.runtime.state import ReplanRecord, RunState, RunStore, TickRecord
from goalkeeper.store import list_items

from .helpers import ScriptedWorld, spec_from

LOCKED = spec_from("""
    goalkeeper: 1
    name: locked
    goal: {healthy: true}
    facts:
      healthy: {observe: {file: h}}
      pinned: {observe: {file: p}}
      allowed: {observe: {file: a}}
      latency: {type: int, observe: {command: 'echo 5'}}
    actions:
      deploy:
        pre: {pinned: true}
        effects: {healthy: true}
      pin:
        pre: {allowed: true}
        effects: {pinned: true}
""")

FACTS = {"healthy": False, "pinned": False, "allowed": False, "latency": None}


def state() -> RunState:
    st = RunState(run_id="run-1", spec_path="/w/spec.yaml", spec_sha256="0" * 64, spec_name="locked",
                  created="t", updated="t", max_ticks=25, tick=4, facts=dict(FACTS),
                  sources={"healthy": "observed", "pinned": "observed", "allowed": "observed",
                           "latency": "unknown"},
                  errors={"latency": "timed out after 1.0s"})
    st.history = [
        TickRecord(tick=1, action="pin", outcome="ok", started="t"),
        TickRecord(tick=2, action="deploy", outcome="failed", reason="exit 1: HTTP | 404", started="t",
                   strikes=1),
        TickRecord(tick=3, action="deploy", outcome="refused", reason="precondition no longer holds",
                   started="t", strikes=2),
    ]
    st.replans = [ReplanRecord(tick=3, failed=["deploy"], blocked=["deploy"],
                               corrections=[{"fact": "pinned", "believed": True, "observed": False}])]
    return st


def escalation(facts: dict[str, object], **ledger: object) -> Escalate:
    """The Escalate instruction the machine gives for ``facts``."""
    world = ScriptedWorld(LOCKED, facts, outcomes={"pin": "fail"})
    world.drive(Options(), Ledger(**ledger))  # type: ignore[arg-type]
    (esc,) = [i for i in world.instructions if isinstance(i, Escalate)]
    return esc


def unreachable() -> Escalate:
    return escalation(FACTS)


def bare(reason: str, message: str) -> Escalate:
    from goalkeeper.runtime.machine import suggestions

    return Escalate(reason, message, "warning", message, {}, tuple(suggestions(reason, [], [], [])))


def test_report_json_holds_what_a_human_needs() -> None:
    r = build_report(LOCKED, state(), unreachable())
    assert r["run_id"] == "run-1" and r["reason"] == "unreachable"
    assert r["goal"] == ["healthy == true"]  # the goal as written, never degraded
    assert set(r["facts"]) == set(FACTS)  # every observed fact
    assert r["facts"]["latency"] == {"value": None, "source": "unknown", "error": "timed out after 1.0s"}
    assert r["facts"]["pinned"] == {"value": False, "source": "observed"}
    assert [u["fact"] for u in r["unreachable"]] == ["healthy"]
    assert [(f["tick"], f["outcome"]) for f in r["failures"]] == [(2, "failed"), (3, "refused")]
    assert r["replans"][0]["corrections"] == [{"fact": "pinned", "believed": True, "observed": False}]
    roots = [g for g in r["gaps"] if g["root"]]
    assert roots == [{"action": "pin", "fact": "allowed", "condition": "== true", "root": True}]
    assert {"action": "deploy", "fact": "pinned", "condition": "== true", "root": False} in r["gaps"]
    assert any("allowed == true" in s for s in r["suggested_actions"])


def test_report_markdown_sections() -> None:
    md = render_markdown(build_report(LOCKED, state(), unreachable()))
    assert md.startswith("# Escalation: run run-1 (locked)")
    for section in ("## What would close the gap", "## Unreachable goal facts", "## Observed facts",
                    "## Failure history", "## Replans", "## Suggested actions"):
        assert section in md
    assert "action `pin` needs `allowed == true` — **root" in md
    assert "| latency | unknown | unknown (timed out after 1.0s) |" in md
    assert "exit 1: HTTP \\| 404" in md  # a pipe in a reason does not break the table
    assert "`pinned` believed true, observed false" in md
    assert "Ticks used: 4 of 25." in md


def test_tick_cap_report_has_no_gaps_and_a_suggestion() -> None:
    esc = bare("tick_cap", "tick cap reached: 25 of max_ticks 25")
    r = build_report(LOCKED, state(), esc)
    assert r["gaps"] == [] and r["unreachable"] == []
    assert any("max_ticks" in s for s in r["suggested_actions"])
    assert "What would close the gap" not in render_markdown(r)


def test_no_admissible_action_report_names_the_blocked_action() -> None:
    d = escalation({**FACTS, "allowed": True})  # pin fails until it is blocked, and nothing else sets pinned
    assert d.reason == "no_admissible_action"
    r = build_report(LOCKED, state(), d)
    assert r["blocked_actions"] == ["pin"]
    assert any("pin" in s and "keeps failing" in s for s in r["suggested_actions"])


def test_approval_required_report_suggests_yes() -> None:
    r = build_report(LOCKED, state(), bare("approval_required", "deploy needs approval"))
    assert any("--yes" in s for s in r["suggested_actions"])
    assert "approval_required" in render_markdown(r)


def test_filing_twice_for_the_same_tick_reuses_the_triage_item(tmp_path: Path) -> None:
    # A crash between filing and logging run.escalated, or a retried activity, files again.
    store = RunStore("run-1", tmp_path)
    esc = unreachable()
    first = file_escalation(LOCKED, state(), esc, store, tmp_path)
    again = file_escalation(LOCKED, state(), esc, store, tmp_path)
    assert first == again and len(list_items(tmp_path)) == 1
    (item,) = list_items(tmp_path)
    assert item.context["until"] == [] and item.context["report"] == str(store.dir / "report.json")
    assert (store.dir / "report.md").read_text().startswith("# Escalation: run run-1")
