"""Claude Code hook input that is JSON-shaped but hostile: deep nesting must read as "not the hook JSON",
in goalkeeper's words, like any other input that is not one JSON object."""

from __future__ import annotations

import pytest

from goalkeeper.errors import ConfigError
from goalkeeper.integrations.hooks import handle_hook, parse_input

DEEP = ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000]


@pytest.mark.parametrize("raw", DEEP, ids=["array", "object"])
def test_deeply_nested_hook_input_is_a_config_error(raw: str) -> None:
    # json.loads raises RecursionError, which parse_input does not catch (it catches ValueError)
    with pytest.raises(ConfigError, match="hook input"):
        parse_input(raw.encode(), "stop")


@pytest.mark.parametrize("event", ["stop", "session-start", "session-end"])
def test_deeply_nested_hook_input_gets_the_not_json_answer(event: str) -> None:
    reply = handle_hook(event, DEEP[0].encode())  # raises today; the CLI's last resort then prints the type
    if event == "stop":
        assert reply.output is not None and "not blocking the stop" in reply.output["systemMessage"]
        assert "RecursionError" not in reply.output["systemMessage"]
    else:
        assert reply.output is None  # as for any other input that is not the hook JSON
