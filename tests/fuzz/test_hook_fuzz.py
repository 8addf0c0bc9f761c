"""Claude Code's hook stdin under fuzzing: any bytes give a JSON reply (or none), never a traceback.

The hook JSON comes from the host, which a model drives: hostile values in every
key Claude Code sends (NUL, lone surrogates, paths out of the workspace, 10^400,
deep nesting, duplicate keys, a flood past the 1 MiB cap) must each give
Claude Code's reply format (ASCII JSON on stdout, exit 0), must never say
"internal error", and must leave the bound goal loadable (no lost state).
In-process and cheap: session-start and session-end do not run the checks;
stop runs them on a goal whose check is ``true``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.convergence import load_goal
from goalkeeper.integrations.hooks import MAX_INPUT, handle_hook

from .strategies import json_values

DEEP_EXAMPLES = 60  # per round of tests/fuzz/deep.py (each example is costly)
FAST = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
KEYS = ["session_id", "transcript_path", "cwd", "hook_event_name", "stop_hook_active", "source", "reason",
        "permission_mode", "prompt"]
ODD = st.sampled_from(["", "\x00", "\ud800", "é", "../" * 40, "/", "/dev/zero", "/proc/self/fd/0", "s1", "a" * 70000,
                       "\u202e", "[/]", "stop", "session-start", 10**400, -1, 1e308, True, None, [], {}, [[[]]]])


_MADE: dict[Path, str] = {}


def workspace(tmp_path: Path) -> tuple[Path, str]:
    """(a git workspace, its active host goal bound to session s1), made once per ``tmp_path``."""
    from goalkeeper.integrations.tools import goal_new_tool

    d = tmp_path / "ws"
    if d not in _MADE:
        d.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=d, check=True)
        before = os.getcwd()
        os.chdir(d)
        try:
            _MADE[d] = goal_new_tool("make it so", until=["true"], session="s1", max_iterations=100)["goalId"]
        finally:
            os.chdir(before)
    return d, _MADE[d]


def _input(ws: Path, fields: dict[str, Any], with_cwd: bool) -> dict[str, Any]:
    data = {"session_id": "s1", "hook_event_name": "Stop", **fields}
    if with_cwd:
        data["cwd"] = str(ws)
    return data


def _raw(data: dict[str, Any], how: str) -> bytes:
    text = json.dumps(data)
    if how == "duplicate":  # a later key replaces the earlier one in Python's json; it must not confuse the hook
        text = text.replace("{", '{"cwd": "/", "session_id": "other", ', 1)
    elif how == "nested":
        text = '{"a": ' * 50_000 + "1" + "}" * 50_000
    elif how == "flood":
        text = text + " " * (MAX_INPUT + 1)
    elif how == "array":
        text = "[" + text + "]"
    return text.encode("utf-8", errors="surrogatepass")


def _check_reply(event: str, raw: bytes, gid: str) -> dict[str, Any] | None:
    reply = handle_hook(event, raw)
    assert reply.exit_code == 0
    text = reply.text()
    assert text.isascii() and "internal error" not in text and "Traceback" not in text, text
    load_goal(gid)  # the goal survives whatever the hook was sent
    return json.loads(text) if text else None


@FAST
@given(fields=st.dictionaries(st.sampled_from(KEYS), ODD | json_values, max_size=5), with_cwd=st.booleans(),
       how=st.sampled_from(["plain", "plain", "duplicate", "nested", "flood", "array"]),
       event=st.sampled_from(["session-start", "session-end", "stop"]))
def test_any_hook_input_gets_a_reply(tmp_path: Path, fields: dict[str, Any], with_cwd: bool, how: str,
                                     event: str) -> None:
    ws, gid = workspace(tmp_path)
    _check_reply(event, _raw(_input(ws, fields, with_cwd), how), gid)


BLOBS = [b"", b"\xff\xfe\x00", b"\x00" * 100, b"{", b"null", b'"x"', b"1e999", b'{"cwd": "\\ud800"}',
         b'{"cwd": "\\u0000"}', b'{"stop_hook_active": "yes"}']


def test_bytes_that_are_not_hook_json(tmp_path: Path) -> None:
    _, gid = workspace(tmp_path)
    for blob in BLOBS:  # one workspace for all (each costs a goal): a loop, not parameters
        for event in ("stop", "session-start", "session-end"):
            reply = _check_reply(event, blob, gid)
            assert reply is None or "decision" not in reply, blob  # an unreadable input never blocks the stop


def test_a_readable_stop_of_the_bound_session_still_blocks(tmp_path: Path) -> None:
    ws, gid = workspace(tmp_path)
    reply = _check_reply("stop", _raw(_input(ws, {"prompt": "\ud800" * 10}, True), "plain"), gid)
    assert reply is not None and reply.get("decision") in ("block", None)
    assert reply.get("decision") == "block" or "converged" in str(reply.get("systemMessage")), reply
