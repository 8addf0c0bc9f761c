"""Fake coding-agent CLIs for the adapter tests: print each real CLI's documented output format.

Driven by env vars: FAKE_AGENT_MODE (success | error | garbage), FAKE_AGENT_TEXT
(the answer), FAKE_AGENT_COST, FAKE_AGENT_WRITE (file to create in cwd, unless
the argv asks for read-only mode; FAKE_AGENT_WRITE_ANYWAY=1 ignores that, like
a misbehaving CLI), FAKE_AGENT_LOG (JSON lines of argv, cwd and the prompt as
the CLI parsed it are appended).

Each fake parses its argv the way the real CLI's parser does (commander for
claude, clap for codex and goose, yargs for gemini and opencode, argparse for
aider): ``--`` ends options; a separate option value that starts with ``-`` is
refused (or, for yargs' lenient run command, read as more flags); an unknown
option is an error; codex reads its prompt from stdin when it is ``-`` and runs
its ``resume`` subcommand when the first positional is ``resume``. A prompt that
would not reach the real CLI intact exits 2 with the parser's kind of message.
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


# prog -> (subcommand, options taking a value, variadic options, flags, prompt options, lenient)
PARSERS: dict[str, tuple[str | None, set[str], set[str], set[str], set[str], bool]] = {
    "claude": (None, {"--output-format", "--model", "--permission-mode", "--max-turns"},
               {"--tools", "--disallowedTools", "--allowedTools"}, {"-p", "--print", "--verbose"}, set(), False),
    "codex": ("exec", {"--sandbox", "--model", "-m", "-c", "--config", "-C", "--cd"}, {"--image", "-i"},
              {"--json", "--full-auto", "--skip-git-repo-check"}, set(), False),
    "gemini": (None, {"--output-format", "--approval-mode", "-m", "--model"}, set(), {"--yolo", "-y"},
               {"-p", "--prompt"}, False),
    "opencode": ("run", {"--format", "--model", "-m", "--agent", "-s", "--session"}, set(), {"-c", "--continue"},
                 set(), True),
    "aider": (None, {"--model"}, set(), {"--yes-always", "--no-pretty", "--no-stream", "--no-auto-commits"},
              {"--message", "-m", "--msg"}, False),
    "goose": ("run", {"--model", "--provider"}, set(), {"--no-session"}, {"-t", "--text"}, False),
}


def parse_prompt(prog: str, argv: list[str]) -> tuple[str | None, str | None]:
    """(the prompt the real CLI would see, or None; the parser's error, or None)."""
    sub, values, variadic, flags, prompt_opts, lenient = PARSERS[prog]
    args = list(argv)
    if sub is not None:
        if not args or args[0] != sub:
            return None, f"expected the {sub} subcommand"
        args = args[1:]
    positional: list[str] = []
    prompt: str | None = None
    after_dashes = False
    first_before_dashes = None
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if after_dashes:
            positional.append(a)
            continue
        if a == "--":
            after_dashes = True
            continue
        if not a.startswith("-") or a == "-":
            if first_before_dashes is None and not positional:
                first_before_dashes = a
            positional.append(a)
            continue
        name, eq, attached = a.partition("=")
        if name in values or name in prompt_opts:
            if eq:
                value = attached
            elif i < len(args) and not args[i].startswith("-"):
                value = args[i]
                i += 1
            else:
                return None, f"option {name} needs a value (a value starting with '-' reads as a flag)"
            if name in prompt_opts:
                prompt = value
        elif name in variadic:
            while i < len(args) and not args[i].startswith("-"):
                i += 1
        elif name in flags:
            continue
        elif lenient:  # yargs: an unknown option is an option, and it takes the next word as its value
            if not eq and i < len(args) and not args[i].startswith("-"):
                i += 1
        else:
            return None, f"unknown option '{name}'"
    if prog == "codex" and first_before_dashes == "resume":
        return None, "ran the resume subcommand instead of a new task"
    if not prompt_opts:
        prompt = " ".join(positional) if positional else None
    if prog == "codex" and prompt == "-":
        return None, "read the prompt from stdin (a prompt of '-')"
    if not prompt:
        return None, "no prompt given"
    return prompt, None


def main(prog: str) -> int:
    argv = sys.argv[1:]
    prompt, error = parse_prompt(prog, argv)
    log = os.environ.get("FAKE_AGENT_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"prog": prog, "argv": argv, "cwd": os.getcwd(), "prompt": prompt}) + "\n")
    if error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 2
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
