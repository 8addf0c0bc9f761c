"""Integers too large for a float fact (more than 308 digits; YAML and JSON read up to 4,300) are an
error at their key, never an ``OverflowError`` from ``float()``; a value in a message is cut short."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goalkeeper.errors import SpecError, StateError
from goalkeeper.model import parse_spec_text
from goalkeeper.model.conditions import check_value
from goalkeeper.model.state import load_state

HUGE = "9" * 400
SPEC = "goalkeeper: 1\ngoal: {x: {'<': %s}}\nfacts:\n  x: {type: float, initial: %s}\nactions:\n  a: {effects: {x: %s}}\n"


@pytest.mark.parametrize(("goal", "initial", "effect", "where"), [
    ("5", HUGE, "1", "facts.x.initial"), ("5", "1", HUGE, "actions.a.effects.x"), (HUGE, "1", "1", "goal.x.<"),
])
def test_a_huge_integer_for_a_float_fact_is_named_at_its_key(goal: str, initial: str, effect: str,
                                                             where: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_spec_text(SPEC % (goal, initial, effect))
    (issue,) = err.value.issues
    assert issue.path == where and "too large for a float fact" in issue.message and len(issue.message) < 200


def test_a_huge_integer_in_a_state_file_is_a_state_error(tmp_path: Path) -> None:
    spec = parse_spec_text(SPEC % ("5", "1", "1"))
    p = tmp_path / "state.json"
    p.write_text(json.dumps({"x": int(HUGE)}))
    with pytest.raises(StateError, match="x: expected a number, got int 9+\\.\\.\\., too large"):
        load_state(spec, p)


def test_a_value_in_a_message_is_cut_even_past_the_digit_limit() -> None:
    _, err = check_value("str", 10**5000)  # repr() itself refuses an integer this long
    assert err == "expected a string, got int of about 5001 digits"
    _, err = check_value("bool", "x" * 10_000)
    assert err is not None and len(err) < 100
