"""Fake coding-agent CLIs for the adapter tests: print each real CLI's documented output format.

Driven by env vars: FAKE_AGENT_MODE (success | error | garbage), FAKE_AGENT_TEXT
(the answer), FAKE_AGENT_COST, FAKE_AGENT_WRITE (file to create in cwd, unless
the argv asks for read-only mode; FAKE_AGENT_WRITE_ANYWAY=1 ignores that, like
a misbehaving CLI), FAKE_AGENT_LOG (JSON lines of argv + cwd are appended).
"""

from __future__ import annotations

import json
import os
import sys

READONLY_MARKERS = (("--permission-mode", "plan"), ("--sandbox", "read-only"), ("--approval-mode", "plan"),
                    ("--agent", "plan"))


def _read_only(argv: list[str]) -> bool:
    return any(a == flag and i + 1 < len(argv) and argv[i + 1] == v
               for i, a in enumerate(argv) for flag, v in READONLY_MARKERS)


def _emit(lines: list[object]) -> None:
    for obj in lines:
        print(obj if isinstance(obj, str) else json.dumps(obj), flush=True)


def main(prog: str) -> int:
    argv = sys.argv[1:]
    log = os.environ.get("FAKE_AGENT_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"prog": prog, "argv": argv, "cwd": os.getcwd()}) + "\n")
    mode = os.environ.get("FAKE_AGENT_MODE", "success")
    text = os.environ.get("FAKE_AGENT_TEXT", "Fixed the bug in app.py; tests pass.")
    cost = float(os.environ.get("FAKE_AGENT_COST", "0.0123"))
    target = os.environ.get("FAKE_AGENT_WRITE")
    if target and mode == "success" and (not _read_only(argv) or os.environ.get("FAKE_AGENT_WRITE_ANYWAY")):
        with open(target, "w", encoding="utf-8") as f:
            f.write(f"written by fake {prog}\n")
    if mode == "garbage":
        print("Segmentation fault (core dumped) -- not the documented format")
        return 0
    return FAKES[prog](mode, text, cost)


def claude(mode: str, text: str, cost: float) -> int:
    usage = {"input_tokens": 1200, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 800,
             "output_tokens": 300, "service_tier": "standard"}
    base = {"type": "result", "duration_ms": 5321, "duration_api_ms": 4870, "session_id": "3f1c-fake",
            "total_cost_usd": cost, "usage": usage}
    if mode == "error":
        _emit([{**base, "subtype": "error_max_turns", "is_error": True, "num_turns": 10}])
        return 1
    _emit([{**base, "subtype": "success", "is_error": False, "num_turns": 4, "result": text}])
    return 0


def codex(mode: str, text: str, cost: float) -> int:
    events: list[object] = [
        {"type": "thread.started", "thread_id": "0199-fake-thread"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "**Looking at app.py**"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "pytest -q",
                                            "aggregated_output": "1 passed", "exit_code": 0, "status": "completed"}},
    ]
    if mode == "error":
        _emit([*events, {"type": "error", "message": "stream disconnected before completion"},
               {"type": "turn.failed", "error": {"message": "stream disconnected before completion"}}])
        return 1
    _emit([*events, {"type": "item.completed", "item": {"id": "item_2", "type": "agent_message", "text": text}},
           {"type": "turn.completed", "usage": {"input_tokens": 24763, "cached_input_tokens": 24448,
                                                "output_tokens": 122}}])
    return 0


def gemini(mode: str, text: str, cost: float) -> int:
    if mode == "error":
        print(json.dumps({"error": {"type": "ApiError", "message": "Quota exceeded for model", "code": 429}},
                         indent=2))
        return 1
    out = {"response": text, "stats": {
        "models": {"gemini-2.5-flash": {
            "api": {"totalRequests": 2, "totalErrors": 0, "totalLatencyMs": 3010},
            "tokens": {"prompt": 10000, "candidates": 1000, "total": 11500, "cached": 0, "thoughts": 500, "tool": 0},
        }},
        "tools": {"totalCalls": 1, "totalSuccess": 1, "totalFail": 0, "byName": {}},
        "files": {"totalLinesAdded": 2, "totalLinesRemoved": 1},
    }}
    print(json.dumps(out, indent=2))
    return 0


def opencode(mode: str, text: str, cost: float) -> int:
    sid = "ses_fake123"
    start = {"type": "step_start", "timestamp": 1, "sessionID": sid, "part": {"type": "step-start"}}
    if mode == "error":
        _emit([start, {"type": "error", "timestamp": 2, "sessionID": sid,
                       "error": {"name": "ProviderAuthError", "data": {"message": "invalid x-api-key"}}}])
        return 1
    tokens = {"input": 1000, "output": 200, "reasoning": 0, "cache": {"read": 0, "write": 0}}
    _emit([start,
           {"type": "tool_use", "timestamp": 2, "sessionID": sid, "part": {"type": "tool", "tool": "edit"}},
           {"type": "step_finish", "timestamp": 3, "sessionID": sid,
            "part": {"type": "step-finish", "cost": cost / 2, "tokens": tokens}},
           {"type": "text", "timestamp": 4, "sessionID": sid, "part": {"type": "text", "text": text}},
           {"type": "step_finish", "timestamp": 5, "sessionID": sid,
            "part": {"type": "step-finish", "cost": cost / 2, "tokens": tokens}}])
    return 0


def aider(mode: str, text: str, cost: float) -> int:
    print("Aider v0.86.1\nMain model: gpt-4o with diff edit format\nGit repo: .git with 3 files\n"
          "Repo-map: using 1024 tokens, auto refresh")
    if mode == "error":
        print("litellm.AuthenticationError: Incorrect API key provided", file=sys.stderr)
        return 1
    print("app.py\nApplied edit to app.py")
    print(text)
    print(f"Tokens: 2.1k sent, 150 received. Cost: ${cost:.4f} message, ${cost * 3:.4f} session.")
    return 0


def goose(mode: str, text: str, cost: float) -> int:
    print("starting session | provider: openai model: gpt-4o\n    logging to /tmp/x.jsonl")
    if mode == "error":
        print("Error: Failed to authenticate with provider", file=sys.stderr)
        return 1
    print(text)
    return 0


FAKES = {"claude": claude, "codex": codex, "gemini": gemini, "opencode": opencode, "aider": aider, "goose": goose}
