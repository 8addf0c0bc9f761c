"""``runs logs`` on a damaged event log: every record gives a line, never an internal error.

The lines come from the runtime's reporter (``runtime.progress``), which formats
the records a run writes; a log edited or cut on disk can hold anything. Each
event kind, with each of the fields it reads set to each hostile value, must
give terminal-safe text. Pure (no subprocess, no files), so it is cheap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.cli.runs import _stamped, _tick_log

from .test_hostile_event_lines import VALUES

FIELDS = {
    "run.started": ["runId", "spec"], "run.resumed": ["runId", "spec"], "spec.changed": [],
    "run.reconciled": ["history"], "facts.observed": ["facts", "unknown"], "plan.made": ["plan", "cost"],
    "tick.started": ["tick", "action"], "action.finished": ["outcome", "action", "reason", "strikes", "limit"],
    "action.refused": ["action", "reason", "strikes", "limit"], "action.interrupted": ["tick", "action"],
    "run.replanned": ["failed", "corrections"], "run.reached": ["tick"],
    "run.escalated": ["reason", "message", "gaps", "triageId", "report"],
}
GOOD = {"runId": "run-20260101T000000-abcd", "spec": "spec.yaml", "history": [], "facts": {"a": True},
        "unknown": {}, "plan": ["a"], "cost": 1, "tick": 1, "action": "a", "outcome": "ok", "reason": "r",
        "strikes": 1, "limit": 3, "failed": ["a"], "corrections": [], "message": "m", "gaps": [],
        "triageId": "tri-abcd1234", "report": "r.md", "ts": "2026-01-01T00:00:00.000Z"}


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_every_run_event_with_any_value_gives_safe_text(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    show = _stamped()
    for field in FIELDS[kind] or ["event"]:
        for value in [*VALUES, "[/]", None]:
            show({**GOOD, "event": kind, field: value})
    show({"event": kind})  # every field missing
    out = capsys.readouterr().out
    assert "\x1b" not in out and not any("\ud800" <= c <= "\udfff" for c in out)


def test_a_damaged_record_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    _stamped()({**GOOD, "event": "facts.observed", "facts": "gone"})
    assert "facts.observed (a damaged record; `runs logs --json` shows it as it is)" in capsys.readouterr().out


@pytest.mark.parametrize("action", ["a\x00b", "\ud800", "../x", "..", 5, None])
def test_an_action_name_no_file_can_have_finds_no_output_file(tmp_path: Path, action: object) -> None:
    from goalkeeper.runtime.state import RunStore

    assert _tick_log(RunStore("run-20260101T000000-abcd", tmp_path), {"tick": 1, "action": action}) is None


def test_an_action_that_prints_terminal_escapes_cannot_drive_the_terminal_of_a_live_run(tmp_path: Path) -> None:
    # Its stderr becomes the failure reason the live lines show: it used to reach the terminal raw
    # (set the window title, clear the screen).
    from ..fuzz.helpers import invoke

    spec = tmp_path / "spec.yaml"
    spec.write_text("goalkeeper: 1\ngoal: {done: true}\nfacts:\n  done: {observe: {file: done.flag}}\n"
                    "actions:\n  finish:\n    effects: {done: true}\n"
                    "    run: [sh, -c, 'printf \"\\033]0;PWNED\\007\\033[2J\" >&2; exit 1']\n"
                    "policy: {max_ticks: 1, strikes: 1}\n")
    o = invoke(tmp_path / "home", "run", spec, cwd=tmp_path)
    assert "finish exit 1: \\x1b]0;PWNED\\x07\\x1b[2J" in o.text, o.text
    assert "\x1b" not in o.text


@pytest.mark.parametrize("record", [
    {"seq": 1, "event": "facts.observed", "facts": "gone"},
    {"seq": 1, "event": "tick.started"},
    {"seq": 1, "event": "action.finished", "tick": "x", "action": None, "outcome": 5},
])
def test_a_record_the_replay_cannot_apply_is_a_damaged_log_not_a_crash(tmp_path: Path, record: dict[str, object]) -> None:
    import json

    from ..fuzz.helpers import assert_clean_failure, invoke
    from ..fuzz.test_state_fuzz import RID, RUN_DOC

    home = tmp_path / "home"
    run = home / "runs" / RID
    run.mkdir(parents=True)
    (run / "state.json").write_text(json.dumps(RUN_DOC))
    (run / "events.jsonl").write_text(json.dumps(record) + "\n")
    shown = invoke(home, "runs", "show", RID)
    assert shown.exception is None and shown.code == 0 and "internal error" not in shown.text, shown.text
    assert_clean_failure(invoke(home, "runs", "show", "--json", "--events", RID), "events.jsonl", "damaged")
    assert_clean_failure(invoke(home, "run", "--resume", RID), "events.jsonl", "cannot be replayed")
