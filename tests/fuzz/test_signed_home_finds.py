"""Fixed inputs for what the signed-home and workspace fuzzing found, in the fast suite (in-process, cheap).

The open ones sit in files the lead owns (``convergence/ledger.py``, ``convergence/persist.py``,
``convergence/infer.py``), so they are strict xfails: the day the fix lands, the XPASS says so —
then drop the mark, and ``OPEN_FIND`` in ``test_signed_home_fuzz.py``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from goalkeeper.convergence import conditions_from_commands, create_goal

from .helpers import invoke

OPEN = pytest.mark.xfail(strict=True, reason="open find in the lead's files; see the module docstring")


def _goal(home: Path, ws: Path) -> str:
    ws.mkdir(exist_ok=True)
    return create_goal("x", conditions_from_commands(["true"], [], None), workspace=ws, root=home).goal_id


def _clean(home: Path, *args: str, cwd: Path | None = None) -> str:
    o = invoke(home, *args, cwd=cwd)
    assert o.exception is None and "internal error" not in o.text and "Traceback" not in o.text, o.text
    return o.text


@OPEN
@pytest.mark.parametrize("mac", ["é", "\ud800", "\u202e" + "0" * 63])
def test_a_goal_file_with_a_non_ascii_signature_is_damaged_not_a_crash(goalkeeper_home: Path, tmp_path: Path,
                                                                      mac: str) -> None:
    # persist.load_goal: hmac.compare_digest(str(mac), ...) raises TypeError on non-ASCII text, so one edited
    # goal file takes `goal list` down (and lets a host's Stop hook fail open).
    gid = _goal(goalkeeper_home, tmp_path / "ws")
    p = goalkeeper_home / "goals" / f"{gid}.json"
    doc = json.loads(p.read_text())
    doc["mac"] = mac
    p.write_text(json.dumps(doc))
    assert "damaged" in _clean(goalkeeper_home, "goal", "list")
    _clean(goalkeeper_home, "goal", "status", gid)


@OPEN
def test_an_event_with_a_non_ascii_signature_is_a_broken_chain_not_a_crash(goalkeeper_home: Path,
                                                                          tmp_path: Path) -> None:
    # ledger.verify_chain: the same compare_digest on a record's "mac".
    gid = _goal(goalkeeper_home, tmp_path / "ws")
    p = goalkeeper_home / "goals" / f"{gid}.events.jsonl"
    recs = [json.loads(x) for x in p.read_text().splitlines()]
    recs[0]["mac"] = "é"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    _clean(goalkeeper_home, "goal", "status", gid)


@OPEN
def test_a_pyproject_nested_thousands_deep_is_unreadable_not_a_crash(goalkeeper_home: Path, tmp_path: Path) -> None:
    # infer._toml and infer._damaged catch TOMLDecodeError only; tomllib recurses into a RecursionError.
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    (ws / "pyproject.toml").write_text("[tool.x]\na = " + "[" * 3000 + "]" * 3000 + "\n")
    _clean(goalkeeper_home, "doctor", cwd=ws)
