"""Parse helpers: raw observer output -> typed fact value, or ValueError with a reason."""

from __future__ import annotations

import pytest

from goalkeeper.runtime.parse import coerce, first_number, json_path, parse_output


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("took 12 ms", 12),
        ("-3 degrees", -3),
        ("ratio .5", 0.5),
        ("v2.50 then 7", 2.5),
        ("1e3 requests", 1000.0),
        ("+4.5e-1", 0.45),
        ("first 3 then 4", 3),
    ],
)
def test_first_number_finds_the_first_number(text: str, want: float) -> None:
    got = first_number(text)
    assert got == want
    assert type(got) is type(want)


def test_first_number_without_digits_raises_with_reason() -> None:
    with pytest.raises(ValueError, match="no number"):
        first_number("all good, nothing to count")


def test_json_path_walks_keys_and_indexes() -> None:
    data = {"data": {"items": [{"ok": False}, {"ok": True, "n": 3}]}}
    assert json_path(data, "data.items[1].ok") is True
    assert json_path(data, "data.items[1].n") == 3
    assert json_path(data, "data.items[0]") == {"ok": False}
    assert json_path([10, 20], "[1]") == 20


@pytest.mark.parametrize("path", [None, ""])
def test_json_path_empty_returns_whole_document(path: str | None) -> None:
    assert json_path({"a": 1}, path) == {"a": 1}


@pytest.mark.parametrize("path", ["data.missing", "data.items[5]", "data.items[0].ok.deeper", "x[0]"])
def test_json_path_missing_raises_value_error_naming_path(path: str) -> None:
    data = {"data": {"items": [{"ok": 1}]}, "x": 5}
    with pytest.raises(ValueError, match="not found") as ei:
        json_path(data, path)
    assert path in str(ei.value)


@pytest.mark.parametrize(
    ("text", "want"),
    [("true", True), ("YES", True), (" on\n", True), ("1", True), ("ok", True),
     ("false", False), ("No", False), ("off", False), ("0", False)],
)
def test_coerce_bool_accepts_common_text(text: str, want: bool) -> None:
    assert coerce("bool", text) is want


def test_coerce_bool_rejects_other_text() -> None:
    with pytest.raises(ValueError, match="true/false"):
        coerce("bool", "maybe")


def test_coerce_numbers_and_strings() -> None:
    assert coerce("int", "42 items") == 42
    assert coerce("int", 3.0) == 3 and isinstance(coerce("int", 3.0), int)
    assert coerce("float", 2) == 2.0 and isinstance(coerce("float", 2), float)
    assert coerce("str", 5) == "5"
    with pytest.raises(ValueError):
        coerce("int", 3.5)
    with pytest.raises(ValueError, match="NaN"):
        coerce("float", float("nan"))
    with pytest.raises(ValueError):
        coerce("int", None)
    with pytest.raises(ValueError):
        coerce("bool", 1)


def test_parse_number() -> None:
    assert parse_output("int", "number", "coverage: 87 %") == 87
    assert parse_output("float", "number", "latency=123.5ms") == 123.5
    assert parse_output("float", "number", "p95=123.5ms") == 95.0  # the FIRST number, by design
    with pytest.raises(ValueError, match="no number"):
        parse_output("int", "number", "garbage output")


def test_parse_json_with_path() -> None:
    body = '{"status": {"healthy": true, "replicas": [1, 2, 3]}, "lag": "12s"}'
    assert parse_output("bool", "json", body, path="status.healthy") is True
    assert parse_output("int", "json", body, path="status.replicas[2]") == 3
    assert parse_output("int", "json", body, path="lag") == 12  # number read from the string
    with pytest.raises(ValueError, match="not found"):
        parse_output("bool", "json", body, path="status.ready")


@pytest.mark.parametrize("garbage", ["<html>oops</html>", "", "{'single': 'quotes'}", "{\"a\": "])
def test_parse_json_garbage_is_a_value_error_with_reason(garbage: str) -> None:
    with pytest.raises(ValueError, match="not JSON"):
        parse_output("bool", "json", garbage, path="a")


def test_parse_json_wrong_type_at_path_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="expected true or false"):
        parse_output("bool", "json", '{"a": [1]}', path="a")


def test_parse_regex_bool_semantics() -> None:
    # no group: a match means true, no match means false
    assert parse_output("bool", "regex", "3 passed in 0.1s", pattern=r"\d+ passed") is True
    assert parse_output("bool", "regex", "1 failed", pattern=r"\d+ passed") is False
    # a group: its text is read as a bool
    assert parse_output("bool", "regex", "ready: yes", pattern=r"ready: (\w+)") is True
    assert parse_output("bool", "regex", "ready: no", pattern=r"ready: (\w+)") is False
    with pytest.raises(ValueError):
        parse_output("bool", "regex", "ready: dunno", pattern=r"ready: (\w+)")


def test_parse_regex_uses_group_one_else_whole_match() -> None:
    text = "build 17 took 42s"
    assert parse_output("int", "regex", text, pattern=r"took (\d+)s") == 42
    assert parse_output("int", "regex", text, pattern=r"(\d+) took (\d+)") == 17  # group 1 of many
    assert parse_output("int", "regex", text, pattern=r"\d+s") == 42  # whole match, number read
    assert parse_output("str", "regex", text, pattern=r"build \d+") == "build 17"
    assert parse_output("str", "regex", text, pattern=r"took (\w+)") == "42s"


def test_parse_regex_failures_are_value_errors() -> None:
    with pytest.raises(ValueError, match="not found"):
        parse_output("int", "regex", "nothing here", pattern=r"took (\d+)")
    with pytest.raises(ValueError, match="needs a pattern"):
        parse_output("int", "regex", "took 4", pattern=None)
    # an optional group that did not take part is an unknown, not a crash
    with pytest.raises(ValueError):
        parse_output("int", "regex", "took", pattern=r"took( \d+)?")


def test_parse_text_strips_and_coerces() -> None:
    assert parse_output("str", "text", "  main\n") == "main"
    assert parse_output("bool", "text", "TRUE\n") is True
    assert parse_output("int", "text", " 12\n") == 12


def test_parse_unknown_mode_is_value_error() -> None:
    with pytest.raises(ValueError, match="does not apply"):
        parse_output("bool", "exists", "x")
