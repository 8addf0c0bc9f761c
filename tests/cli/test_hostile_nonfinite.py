"""Non-finite numbers (``inf``, ``1e999``, ``nan``) given to budget and threshold flags: refused with the flag's
name, never saved. Today they reach the goal file and its signed event log as ``Infinity`` / ``NaN``, which
is not JSON (RFC 8259): ``jq``, JavaScript and goal.schema.json validators reject the state file, and
``goal export`` silently turns the value into null."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from ..fuzz.helpers import assert_clean_failure, invoke


def _strict(text: str, lines: bool) -> None:
    def refuse(token: str) -> None:
        raise ValueError(f"{token} is not JSON")

    for line in (text.splitlines() if lines else [text]):
        if line.strip():
            json.loads(line, parse_constant=refuse)


def _state_is_json(home: Path) -> None:
    for p in sorted((home / "goals").glob("goal-*")):
        if p.suffix in (".json", ".jsonl"):
            _strict(p.read_text(), lines=p.suffix == ".jsonl")  # a goal file is one (indented) document


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    d = tmp_path / "ws"
    d.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=d, check=True)
    return d


@pytest.mark.parametrize("value", ["inf", "1e999", "Infinity"])
def test_goal_new_refuses_an_infinite_dollar_budget(goalkeeper_home: Path, ws: Path, value: str) -> None:
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", "true",
               "--max-dollars", value, cwd=ws)
    assert_clean_failure(o, "--max-dollars")
    if (goalkeeper_home / "goals").exists():
        _state_is_json(goalkeeper_home)


@pytest.mark.parametrize(("flags", "name"), [
    (("--max-dollars", "inf"), "--max-dollars"),
    (("--until", "true", "--type", "coverage_threshold", "--threshold", "nan"), "--threshold"),
], ids=["dollars-inf", "threshold-nan"])
def test_goal_edit_refuses_a_non_finite_value_and_the_state_stays_json(goalkeeper_home: Path, ws: Path,
                                                                        flags: tuple[str, ...], name: str) -> None:
    o = invoke(goalkeeper_home, "goal", "new", "x", "--until", "true", "--maker", "true", cwd=ws)
    assert o.code == 0, o.text
    gid = o.out.strip()
    o = invoke(goalkeeper_home, "goal", "edit", gid, *flags, cwd=ws)
    _state_is_json(goalkeeper_home)  # today: "maxDollars": Infinity / "threshold": NaN in the goal file
    assert_clean_failure(o, name)
