"""``goalkeeper mcp`` on hostile JSON-RPC: every request with an id gets an answer, and stderr stays free
of tracebacks.

A request the SDK cannot validate is dropped today without a reply, so the
client waits for ever (a hang from its side). Strings that are valid JSON but
not valid Unicode (a lone surrogate escape, which JavaScript's JSON.stringify
writes for a broken emoji) and deep nesting are both such requests.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

WAIT = 10.0  # a healthy server answers these in well under a second; this bounds a failing run
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


class Wire:
    """A real ``goalkeeper mcp`` over pipes, one JSON-RPC line at a time."""

    def __init__(self, cwd: Path) -> None:
        env = {k: os.environ[k] for k in ("GOALKEEPER_HOME", "GOALKEEPER_KEYS", "PATH") if k in os.environ}
        self.errlog = cwd / "server.stderr"
        self.proc = subprocess.Popen([sys.executable, "-m", "goalkeeper", "mcp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errlog.open("wb"), cwd=cwd, env=env)
        self.send(json.dumps(INIT))
        assert self.recv() is not None
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("ascii") + b"\n")
        self.proc.stdin.flush()

    def recv(self) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], WAIT)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def ask(self, rid: int, line: str) -> dict[str, Any] | None:
        """Send one request line; its answer (skipping answers to other ids), or None when none came."""
        self.send(line)
        while True:
            answer = self.recv()
            if answer is None or answer.get("id") == rid:
                return answer

    def close(self) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.errlog.read_text(errors="replace")


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    w = Wire(tmp_path)
    yield w
    if w.proc.poll() is None:
        w.close()


def _call(rid: int, name: str, args_json: str) -> str:
    head = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": name}})
    return head[:-2] + ', "arguments": ' + args_json + "}}"  # the arguments verbatim, as a client wrote them


def test_a_lone_surrogate_in_an_argument_gets_an_answer(wire: Wire) -> None:
    answer = wire.ask(7, _call(7, "goal_status", '{"goal_id":"goal-\\ud800"}'))
    assert answer is not None, "no reply: the request was dropped and the client waits for ever"
    assert answer.get("error") or answer["result"]["isError"]
    assert wire.ask(8, _call(8, "goal_list", "{}")) is not None  # and the server still serves


def test_deeply_nested_arguments_get_an_answer(wire: Wire) -> None:
    deep = "[" * 5000 + "]" * 5000
    answer = wire.ask(9, _call(9, "plan", '{"spec":"s.yaml","state":{"done":' + deep + "}}"))
    assert answer is not None, "no reply: the request was dropped and the client waits for ever"
    assert answer.get("error") or answer["result"]["isError"]


def test_asking_for_a_prompt_that_does_not_exist_writes_no_traceback(wire: Wire) -> None:
    answer = wire.ask(11, '{"jsonrpc":"2.0","id":11,"method":"prompts/get","params":{"name":"nope"}}')
    assert answer is not None and "error" in answer
    err = wire.close()
    # the SDK logs a rich traceback box (ValueError: Unknown prompt) on the server's stderr, which hosts
    # such as Claude Code show in their MCP log as a goalkeeper crash
    assert "Traceback" not in err and "raised" not in err and "exception" not in err.lower(), err[-800:]


def test_a_line_that_is_not_json_gets_a_parse_error(wire: Wire) -> None:
    wire.send('{"jsonrpc": "2.0", "id": 12, "method": "tools/list", oops}')
    answer = wire.recv()
    assert answer is not None and answer["error"]["code"] == -32700 and answer["id"] == 12, answer
    assert wire.ask(13, _call(13, "goal_list", "{}")) is not None


@pytest.mark.parametrize(("line", "rid"), [
    ('{"params": {"x": [1, "}]\\""]}, "id": 5}', 5),
    ('{"method": "m", "params": ' + "[" * 5000 + "]" * 5000 + ', "id": "q"}', "q"),
    ('{"id": true}', None),
    ("garbage", None),
    ('{"params": {"id": 3}}', None),  # only the top-level id is the request's
])
def test_the_request_id_is_found_at_the_top_level_only(line: str, rid: int | str | None) -> None:
    from goalkeeper.integrations.mcp_server import request_id

    assert request_id(line) == rid
