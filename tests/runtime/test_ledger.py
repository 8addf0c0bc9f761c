"""The ledger and its events: blocked_now, corrections, apply and replay."""

from __future__ import annotations

import pytest

from goalkeeper.runtime.ledger import Ledger, apply, blocked_now, corrections, replay


def test_blocked_now_holds_while_nothing_changed() -> None:
    snap = {"done": False, "prepped": False, "__spec__": "abc"}
    assert blocked_now({"fast": snap}, {"done": False, "prepped": False}, "abc") == ["fast"]


@pytest.mark.parametrize(
    ("facts", "sha"),
    [
        ({"done": False, "prepped": True}, "abc"),  # a fact changed
        ({"done": False, "prepped": None}, "abc"),  # a fact became unknown
        ({"done": False, "prepped": False, "new": 1}, "abc"),  # a new fact appeared
        ({"done": False, "prepped": False}, "def"),  # the spec changed
    ],
)
def test_blocked_now_lifts_on_any_input_change(facts: dict[str, object], sha: str) -> None:
    snap = {"done": False, "prepped": False, "__spec__": "abc"}
    assert blocked_now({"fast": snap}, facts, sha) == []


def test_blocked_now_is_sorted_and_per_action() -> None:
    snap = {"x": 1, "__spec__": "s"}
    other = {"x": 2, "__spec__": "s"}
    assert blocked_now({"zeta": snap, "alpha": snap, "mid": other}, {"x": 1}, "s") == ["alpha", "zeta"]


def test_corrections_lists_only_facts_that_differ() -> None:
    believed = {"deployed": True, "env_pinned": True, "tests": True}
    observed = {"deployed": False, "env_pinned": False, "tests": True}
    assert corrections(believed, observed) == [
        {"fact": "deployed", "believed": True, "observed": False},
        {"fact": "env_pinned", "believed": True, "observed": False},
    ]


def test_corrections_unknown_and_unbelieved() -> None:
    assert corrections({"a": 1}, {"a": None, "b": 2}) == [
        {"fact": "a", "believed": 1, "observed": None},
        {"fact": "b", "believed": None, "observed": 2},
    ]
    assert corrections({"a": 1}, {"a": 1}) == []


def test_a_step_from_start_to_finish() -> None:
    led = Ledger(spec_sha256="s")
    for e in [
        {"seq": 1, "event": "facts.observed", "facts": {"a": False, "b": None}, "unknown": {"b": "timed out"},
         "initial": {"d": True}},
        {"seq": 2, "event": "tick.started", "tick": 1, "action": "go", "started": "t1"},
        {"seq": 3, "event": "action.finished", "tick": 1, "action": "go", "outcome": "failed", "reason": "exit 1",
         "started": "t1", "ended": "t2", "strikes": 1, "believed": {}},
    ]:
        apply(led, e)
    assert led.facts == {"d": True, "a": False, "b": None}
    assert led.sources == {"d": "initial", "a": "observed", "b": "unknown"} and led.errors == {"b": "timed out"}
    assert led.pending is None and led.tick == 1 and led.strikes == 1 and led.streak == ["go"]
    assert led.history == [{"tick": 1, "action": "go", "outcome": "failed", "reason": "exit 1", "missing_effects": [],
                            "started": "t1", "ended": "t2", "seconds": 0.0, "strikes": 1, "log": None}]
    apply(led, {"seq": 4, "event": "run.replanned", "tick": 1, "failed": ["go"], "corrections": [], "blocked": ["go"]})
    assert led.blocked == {"go": {"d": True, "a": False, "b": None, "__spec__": "s"}}
    assert (led.strikes, led.streak, led.seq) == (0, [], 4)


def test_replay_applies_only_newer_events_in_seq_order_and_ignores_unknown_kinds() -> None:
    led = Ledger(seq=2, tick=1)
    applied = replay(led, [
        {"seq": 4, "event": "action.refused", "tick": 3, "action": "x", "started": "t", "strikes": 1},
        {"seq": 1, "event": "tick.started", "tick": 99, "action": "old", "started": "t"},
        {"seq": 3, "event": "something.new"},
        {"event": "legacy_without_seq"},
    ])
    assert [e["seq"] for e in applied] == [3, 4]
    assert led.tick == 3 and led.seq == 4 and led.history[0]["outcome"] == "refused"


def test_from_dict_takes_only_ledger_fields_and_copies() -> None:
    data = {"run_id": "r", "tick": 2, "facts": {"a": [1]}}
    led = Ledger.from_dict(data)
    led.facts["a"].append(2)
    assert data["facts"] == {"a": [1]} and led.tick == 2
    assert Ledger.from_dict(led.to_dict()) == led
