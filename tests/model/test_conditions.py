"""model.conditions: parsing, type fit of operators, evaluation (None holds nothing)."""

from __future__ import annotations

import math

import pytest

from goalkeeper.model.conditions import (
    OPS,
    OPS_FOR_TYPE,
    Condition,
    check_value,
    format_value,
    parse_condition,
)


@pytest.mark.parametrize(
    ("op", "ref", "value", "expected"),
    [
        ("==", 3, 3, True),
        ("==", 3, 4, False),
        ("!=", 3, 4, True),
        ("!=", 3, 3, False),
        ("<", 2500.0, 2000.0, True),
        ("<", 2500.0, 2500.0, False),
        ("<=", 2500.0, 2500.0, True),
        (">", 1, 1, False),
        (">", 1, 2, True),
        (">=", 1, 1, True),
        (">=", 1, 0, False),
        ("in", ("a", "b"), "a", True),
        ("in", ("a", "b"), "c", False),
        ("==", True, True, True),
        ("==", True, False, False),
        ("!=", "x", "y", True),
    ],
)
def test_condition_holds(op: str, ref: object, value: object, expected: bool) -> None:
    assert Condition("f", op, ref).holds(value) is expected


@pytest.mark.parametrize("op", OPS)
def test_unknown_value_satisfies_no_condition(op: str) -> None:
    ref = (1, 2) if op == "in" else 1
    assert Condition("f", op, ref).holds(None) is False


def test_unknown_value_does_not_satisfy_not_equal() -> None:
    # "!= 3" is not "anything but 3": an unobserved fact is not known to differ.
    assert Condition("f", "!=", 3).holds(None) is False
    assert Condition("f", "!=", True).holds(None) is False


def test_ordering_ops_never_hold_for_strings_or_bools() -> None:
    assert Condition("f", "<", 5).holds("a") is False
    assert Condition("f", ">=", 0).holds(True) is False


def test_condition_text_and_str() -> None:
    assert str(Condition("lcp_ms", "<", 2500.0)) == "lcp_ms < 2500"
    assert Condition("env", "in", ("a", "b")).text() == "in ['a', 'b']"
    assert Condition("ok", "==", True).text() == "== true"


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "unknown"), (True, "true"), (False, "false"), (2.0, "2"), (2.5, "2.5"), ("s", "'s'"), (7, "7")],
)
def test_format_value(value: object, text: str) -> None:
    assert format_value(value) == text


@pytest.mark.parametrize(
    ("ftype", "raw", "coerced"),
    [
        ("bool", True, True),
        ("int", 3, 3),
        ("int", 3.0, 3),
        ("float", 3, 3.0),
        ("float", 2.5, 2.5),
        ("str", "x", "x"),
    ],
)
def test_check_value_accepts_and_coerces(ftype: str, raw: object, coerced: object) -> None:
    value, err = check_value(ftype, raw)
    assert err is None
    assert value == coerced
    assert type(value) is type(coerced)


@pytest.mark.parametrize(
    ("ftype", "raw", "fragment"),
    [
        ("bool", 1, "expected true or false, got int 1"),
        ("bool", "true", "expected true or false, got str 'true'"),
        ("int", True, "expected an integer, got bool True"),
        ("int", 1.5, "expected an integer, got float 1.5"),
        ("int", "1", "expected an integer"),
        ("float", False, "expected a number, got bool False"),
        ("float", math.nan, "NaN"),
        ("float", "1.0", "expected a number"),
        ("str", 3, "expected a string, got int 3"),
        ("str", None, "expected a string, got null"),
        ("weird", 1, "unknown fact type"),
    ],
)
def test_check_value_rejects(ftype: str, raw: object, fragment: str) -> None:
    _, err = check_value(ftype, raw)
    assert err is not None and fragment in err


def test_parse_plain_value_is_equality() -> None:
    conds, errors = parse_condition("ok", "bool", True)
    assert errors == []
    assert conds == [Condition("ok", "==", True)]


def test_parse_operator_map_gives_one_condition_per_operator() -> None:
    conds, errors = parse_condition("n", "int", {">": 1, "<=": 5})
    assert errors == []
    assert set(conds) == {Condition("n", ">", 1), Condition("n", "<=", 5)}


def test_parse_coerces_to_fact_type() -> None:
    conds, _ = parse_condition("lcp", "float", {"<": 2500})
    assert conds[0].value == 2500.0 and isinstance(conds[0].value, float)
    conds, _ = parse_condition("n", "int", {"in": [1, 2.0]})
    assert conds == [Condition("n", "in", (1, 2))]


@pytest.mark.parametrize("ftype", ["bool", "str"])
@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_operators_do_not_fit_bool_or_str(ftype: str, op: str) -> None:
    val = True if ftype == "bool" else "x"
    conds, errors = parse_condition("f", ftype, {op: val})
    assert conds == []
    assert errors and errors[0][0] == f".{op}"
    assert f"does not fit a {ftype} fact" in errors[0][1]


def test_operator_table_matches_promise() -> None:
    assert set(OPS_FOR_TYPE["bool"]) == {"==", "!=", "in"}
    assert set(OPS_FOR_TYPE["str"]) == {"==", "!=", "in"}
    assert set(OPS_FOR_TYPE["int"]) == set(OPS_FOR_TYPE["float"]) == {"==", "!=", "<", "<=", ">", ">=", "in"}


def test_unknown_operator() -> None:
    _, errors = parse_condition("n", "int", {"=~": 1})
    assert errors == [(".=~", "unknown operator '=~'; use one of ==, !=, <, <=, >, >=, in")]


def test_in_needs_non_empty_list() -> None:
    for bad in ([], 3, "ab"):
        conds, errors = parse_condition("n", "int", {"in": bad})
        assert conds == []
        assert errors == [(".in", "'in' needs a non-empty list of values")]


def test_in_reports_each_bad_item_with_index() -> None:
    _, errors = parse_condition("n", "int", {"in": [1, "two", 3, True]})
    assert [e[0] for e in errors] == [".in[1]", ".in[3]"]


def test_empty_condition_map() -> None:
    conds, errors = parse_condition("n", "int", {})
    assert conds == [] and errors and "empty condition" in errors[0][1]


def test_all_errors_of_one_condition_are_collected() -> None:
    _, errors = parse_condition("n", "int", {"<": "x", "~": 1, ">": 2})
    assert {e[0] for e in errors} == {".<", ".~"}
