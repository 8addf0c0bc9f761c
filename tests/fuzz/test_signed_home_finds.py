"""Fixed inputs for what the signed-home and workspace fuzzing found, in the fast suite (in-process, cheap).

The three found in ``convergence/`` (a non-ASCII signature, a signed event whose seq is no
number, a pyproject nested thousands deep) are fixed there; their inputs stay here.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from goalkeeper.convergence import conditions_from_commands, create_goal

from .helpers import invoke


def _goal(home: Path, ws: Path) -> str:
    """A goal made in-process (no check runs), for the readers' finds."""
    ws.mkdir(exist_ok=True)
    return create_goal("x", conditions_from_commands(["true"], [], None), workspace=ws, root=home).goal_id


def _clean(home: Path, *args: str, cwd: Path | None = None) -> str:
    o = invoke(home, *args, cwd=cwd)
    assert o.exception is None and "internal error" not in o.text and "Traceback" not in o.text, o.text
    return o.text


BROKEN_GOAL_FILES = {
    "truncated": lambda doc, text: text[:100],
    "another goalId": lambda doc, text: json.dumps({**doc, "goalId": "goal-zzzzzzzz"}),
    "a non-ASCII mac": lambda doc, text: json.dumps({**doc, "mac": "é"}),
    "a lone-surrogate mac": lambda doc, text: json.dumps({**doc, "mac": "\ud800"}),
    "a mac of another shape": lambda doc, text: json.dumps({**doc, "mac": ["0" * 64]}),
    "not an object": lambda doc, text: "[]",
}


@pytest.mark.parametrize("how", sorted(BROKEN_GOAL_FILES))
def test_a_broken_goal_file_is_an_integrity_error(goalkeeper_home: Path, tmp_path: Path, how: str) -> None:
    # An IntegrityError is what audited_goal(repair=True) rebuilds from the signed log; a plain
    # CorruptStateError (or, for a non-ASCII mac, a TypeError from hmac.compare_digest) was not.
    from goalkeeper.convergence import load_goal
    from goalkeeper.errors import IntegrityError

    gid = _goal(goalkeeper_home, tmp_path / "ws")
    p = goalkeeper_home / "goals" / f"{gid}.json"
    text = p.read_text()
    p.write_text(BROKEN_GOAL_FILES[how](json.loads(text), text))
    with pytest.raises(IntegrityError):
        load_goal(gid)
    assert "damaged" in _clean(goalkeeper_home, "goal", "list")  # listed as damaged, never a crash


@pytest.mark.parametrize("how", ["a non-ASCII mac"])  # one case end to end (a check runs); the rest above
def test_a_host_that_breaks_its_goal_file_does_not_escape_the_stop_hook(goalkeeper_home: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       how: str) -> None:
    # It used to let the session stop ("stop hook failed"; a truncated file: "could not be rebuilt").
    from goalkeeper.integrations.hooks import handle_hook
    from goalkeeper.integrations.tools import goal_new_tool

    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    monkeypatch.chdir(ws)
    gid = goal_new_tool("never", until=["false"], session="s1")["goalId"]
    p = goalkeeper_home / "goals" / f"{gid}.json"
    text = p.read_text()
    p.write_text(BROKEN_GOAL_FILES[how](json.loads(text), text))
    reply = json.loads(handle_hook("stop", json.dumps({"session_id": "s1", "cwd": str(ws)})).text())
    assert reply.get("decision") == "block", reply
    assert "rebuilt from its signed event log" in reply["systemMessage"]


def test_an_event_with_a_non_ascii_signature_is_a_broken_chain_not_a_crash(goalkeeper_home: Path,
                                                                          tmp_path: Path) -> None:
    # ledger.verify_chain: hmac.compare_digest(str(rec["mac"]), ...) raises TypeError on non-ASCII text;
    # `goal status` fails, and a host's Stop hook says "could not check" and lets the session stop.
    gid = _goal(goalkeeper_home, tmp_path / "ws")
    p = goalkeeper_home / "goals" / f"{gid}.events.jsonl"
    recs = [json.loads(x) for x in p.read_text().splitlines()]
    recs[0]["mac"] = "é"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    _clean(goalkeeper_home, "goal", "status", gid)


@pytest.mark.parametrize("seq", [None, "", [1]])
def test_a_signed_event_without_a_number_for_seq_is_a_broken_chain_not_a_crash(goalkeeper_home: Path,
                                                                              tmp_path: Path, seq: object) -> None:
    # ledger.verify_chain: int(rec.get("seq", seq + 1)) on a record that passed its signature (only the
    # key holder, e.g. another version, writes one): TypeError / ValueError from every reader.
    from goalkeeper.convergence.ledger import key_for, sign

    gid = _goal(goalkeeper_home, tmp_path / "ws")
    p = goalkeeper_home / "goals" / f"{gid}.events.jsonl"
    recs = [json.loads(x) for x in p.read_text().splitlines()]
    recs[0]["seq"] = seq
    recs[0]["mac"] = sign(key_for(goalkeeper_home), recs[0])
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    _clean(goalkeeper_home, "goal", "status", gid)


def test_a_pyproject_nested_thousands_deep_is_unreadable_not_a_crash(goalkeeper_home: Path, tmp_path: Path) -> None:
    # infer._toml and infer._damaged catch TOMLDecodeError only; tomllib recurses into a RecursionError.
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    (ws / "pyproject.toml").write_text("[tool.x]\na = " + "[" * 3000 + "]" * 3000 + "\n")
    _clean(goalkeeper_home, "doctor", cwd=ws)
