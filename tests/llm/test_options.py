"""Typed provider options: command-line text becomes the declared type, or a clear error."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.adapters.agents import oracle_option_values
from goalkeeper.errors import ConfigError
from goalkeeper.llm import OpenAIProvider, Option, coerce_option, coerce_options, get_provider
from tests.fakes.openai_server import Answer, FakeOpenAIServer, Status

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize(("opt", "raw", "want"), [
    (Option(int, 0), "0", 0), (Option(int, 0), " 7 ", 7), (Option(int), "-3", -3), (Option(int), 5, 5),
    (Option(float, 0), "1.5", 1.5), (Option(float), 2, 2.0), (Option(float), "1e3", 1000.0),
    (Option(bool), "false", False), (Option(bool), "Yes", True), (Option(bool), "0", False), (Option(bool), True, True),
    (Option(str), "http://x", "http://x"), (Option(("a", "b")), "b", "b"),
    (Option(dict), '{"m": {"input_per_mtok": 1}}', {"m": {"input_per_mtok": 1}}),
    (Option(list), '["a", "b c"]', ["a", "b c"]), (Option(list), "a 'b c'", ["a", "b c"]),
])
def test_values_are_converted(opt: Option, raw: Any, want: Any) -> None:
    got = coerce_option("x", raw, opt)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize(("opt", "raw", "expected"), [
    (Option(int, 0), "zero", "an integer >= 0"), (Option(int, 0), "-1", "an integer >= 0"),
    (Option(int), "1.5", "an integer"), (Option(int), True, "an integer"), (Option(int), "9" * 5000, "an integer"),
    (Option(float), "nan", "a number"), (Option(float), "inf", "a number"), (Option(float), "x", "a number"),
    (Option(bool), "maybe", "true or false"), (Option(bool), 1, "true or false"),
    (Option(str), 3, "text"), (Option(("a", "b")), "c", "one of a, b"), (Option(dict), "[1]", "a JSON object"),
    (Option(dict), "{", "a JSON object"), (Option(list), "[1]", "a list (JSON array or words)"),
])
def test_bad_values_name_the_option_and_the_type(opt: Option, raw: Any, expected: str) -> None:
    with pytest.raises(ConfigError) as ei:
        coerce_option("max_retries", raw, opt, where="--oracle-option")
    assert str(ei.value).startswith(f"--oracle-option max_retries: expected {expected}, got ")


def test_unknown_options_suggest_the_close_one() -> None:
    with pytest.raises(ConfigError, match=r"max_retry: unknown option for openai \(did you mean max_retries\?\)"):
        coerce_options("openai", {"max_retry": "1"})
    assert coerce_options("some-plugin", {"anything": "1"}) == {"anything": "1"}  # nothing declared


def test_max_retries_zero_reaches_the_sdk_as_an_int(openai_server: FakeOpenAIServer) -> None:
    openai_server.queue(Status(500, "boom"), Answer("late"))
    p = get_provider("openai", base_url=openai_server.base_url, api_key="k", max_retries="0", timeout="30",
                     prices={})
    assert isinstance(p, OpenAIProvider) and p.client.max_retries == 0 and p.timeout == 30.0
    with pytest.raises(Exception, match="HTTP 500"):
        p.complete([{"role": "user", "content": "x"}], model="m")
    assert len(openai_server.requests) == 1  # zero retries, as asked


def test_a_bad_provider_option_is_a_config_error_not_a_type_error() -> None:
    with pytest.raises(ConfigError, match="openai provider option max_retries: expected an integer >= 0, got 'x'"):
        get_provider("openai", base_url="http://127.0.0.1:9", api_key="k", max_retries="x")
    with pytest.raises(ConfigError, match="unknown option for openai"):
        get_provider("openai", base_url="http://127.0.0.1:9", api_key="k", max_retires=1)


def test_oracle_option_values_per_oracle_kind() -> None:
    assert oracle_option_values("openai:gpt-4o", {"max_retries": "0", "temperature": "0.1", "reasks": "2"}) == {
        "max_retries": 0, "temperature": 0.1, "reasks": 2}
    assert oracle_option_values("agent:gemini", {"allow_advisory_readonly": "false"}) == {
        "allow_advisory_readonly": False}  # not the true-ish string "false"
    with pytest.raises(ConfigError, match="takes no options"):
        oracle_option_values("deterministic", {"x": "1"})


def test_goal_new_stores_typed_oracle_options(run_cli: Run, tmp_path: Path) -> None:
    r = run_cli("goal", "new", "fix it", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-4o-mini",
                "--oracle-option", "max_retries=0", "--oracle-option", "base_url=http://127.0.0.1:9/v1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["oracle"]["options"] == {"max_retries": 0, "base_url": "http://127.0.0.1:9/v1"}
    bad = run_cli("goal", "new", "fix it", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-4o-mini",
                  "--oracle-option", "max_retries=zero")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "--oracle-option max_retries: expected an integer >= 0, got 'zero'" in bad.stderr
