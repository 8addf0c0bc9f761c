"""The CLI under fuzzing: damaged state and hostile specs give an exit code and a message.

Never a traceback or an "internal error" line; ``--json`` output always parses;
a listing with a damaged file still lists the good ones. In-process (click's
runner), so hundreds of invocations take seconds.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import Outcome, invoke
from .strategies import VALID_JSON, VALID_YAML, bombs, goal_document, mutated, state_mutations
from .test_state_fuzz import GID, RID, RUN_DOC, TID, TRIAGE_DOC, put

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def ok(o: Outcome, *, codes: tuple[int, ...] = (0, 1), json_out: bool = False) -> None:
    assert o.exception is None, f"{type(o.exception).__name__}: {o.exception}"
    assert o.code in codes, (o.code, o.text)
    assert "Traceback" not in o.text and "internal error" not in o.text, o.text
    if json_out and o.out.strip():
        for line in o.out.strip().splitlines():
            json.loads(line)  # every line a JSON document
        assert o.out.isascii()


@FAST
@given(text=state_mutations(goal_document()))
def test_goal_commands_on_a_damaged_goal(tmp_path_factory: object, text: str) -> None:
    home = Path(tmp_path_factory.mktemp("home"))  # type: ignore[attr-defined]
    put(home / "goals" / f"{GID}.json", text)
    put(home / "goals" / "goal-good0001.json", json.dumps({**goal_document(), "goalId": "goal-good0001"}))
    listing = invoke(home, "goal", "list", "--json")
    ok(listing, json_out=True)
    assert "goal-good0001" in listing.out
    ok(invoke(home, "goal", "list"))
    for cmd in (["status"], ["status", "--json"], ["show"], ["show", "--json"], ["export"]):
        ok(invoke(home, "goal", *cmd, GID), json_out="--json" in cmd or cmd == ["export"])


@FAST
@given(text=state_mutations(RUN_DOC))
def test_run_commands_on_a_damaged_run(tmp_path_factory: object, text: str) -> None:
    home = Path(tmp_path_factory.mktemp("home"))  # type: ignore[attr-defined]
    put(home / "runs" / RID / "state.json", text)
    put(home / "runs" / RID / "events.jsonl", text)
    ok(invoke(home, "runs", "list"))
    ok(invoke(home, "runs", "list", "--json"), json_out=True)
    ok(invoke(home, "runs", "show", RID))
    ok(invoke(home, "runs", "show", "--json", "--events", RID), json_out=True)


@FAST
@given(text=state_mutations(TRIAGE_DOC))
def test_triage_commands_on_a_damaged_item(tmp_path_factory: object, text: str) -> None:
    home = Path(tmp_path_factory.mktemp("home"))  # type: ignore[attr-defined]
    put(home / "triage" / f"{TID}.json", text)
    put(home / "triage" / f"{TID}.md", text)
    ok(invoke(home, "triage", "list"))
    ok(invoke(home, "triage", "list", "--json"), json_out=True)
    ok(invoke(home, "triage", "show", TID))
    ok(invoke(home, "triage", "show", "--json", TID), json_out=True)


@FAST
@given(text=mutated(VALID_YAML) | mutated(VALID_JSON) | bombs, as_json=st.booleans())
def test_validate_and_plan_on_hostile_specs(tmp_path_factory: object, text: str, as_json: bool) -> None:
    d = Path(tmp_path_factory.mktemp("spec"))  # type: ignore[attr-defined]
    p = put(d / ("spec.json" if as_json else "spec.yaml"), text)
    home = d / "home"
    ok(invoke(home, "validate", p))
    v = invoke(home, "validate", "--json", p)
    ok(v, json_out=True)
    assert json.loads(v.out)["valid"] in (True, False)
    ok(invoke(home, "plan", p), codes=(0, 1, 3, 4))  # 3 unreachable, 4 out of time
    ok(invoke(home, "plan", "--json", p), codes=(0, 1, 3, 4), json_out=True)
