"""store.decode: JSON and YAML with bounded depth, aliases and numbers; line maps without aliases."""

from __future__ import annotations

import json

import pytest

from goalkeeper.store.decode import MAX_DEPTH, check_tree, decode_json, decode_yaml, json_line_map

BOMB = "\n".join(
    [f"a0: &a0 [{', '.join(['lol'] * 9)}]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
)


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    res = decode_yaml(BOMB)
    (p,) = res.problems
    assert "aliases expand to more than 2,000,000 values" in p.message
    assert p.line is not None and p.path.startswith("a")


def test_a_recursive_alias_is_refused() -> None:
    (p,) = decode_yaml("a: &x [1, *x]\n").problems
    assert "recursive alias" in p.message and p.path == "a[1]"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 100_000])
def test_deep_nesting_is_a_problem_not_a_recursion_error(depth: int) -> None:
    (p,) = decode_yaml("a: " + "[" * depth + "]" * depth).problems
    assert "nest" in p.message
    data, problem = decode_json("[" * depth + "]" * depth)
    assert data is None and problem is not None and "nested deeper" in problem.message


def test_aliases_count_towards_depth() -> None:
    chain = "a0: &a0 [1]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 150))
    (p,) = decode_yaml(chain).problems
    assert "once aliases are expanded" in p.message


def test_shared_aliases_within_limits_are_fine() -> None:
    res = decode_yaml("x: &a [1, 2]\ny: *a\nz: {k: *a}\n")
    assert res.problems == [] and res.data == {"x": [1, 2], "y": [1, 2], "z": {"k": [1, 2]}}
    assert res.lines == {"x": 1, "x[0]": 1, "x[1]": 1, "y": 2, "z": 3, "z.k": 3}  # no path through an alias


def test_huge_integers_name_their_key() -> None:
    (p,) = decode_yaml("facts:\n  n:\n    initial: " + "9" * 5000 + "\n").problems
    assert p.path == "facts.n.initial" and "4,300 digits" in p.message
    data, problem = decode_json('{"a": [1, ' + "9" * 5000 + "]}")
    assert problem is not None and problem.path == "a[1]" and "4,300 digits" in problem.message


def test_impossible_dates_and_non_finite_numbers() -> None:
    found = decode_yaml("d: 2001-13-45\ne: [1, .nan]\nf: .inf\n").problems
    assert sorted(p.path for p in found) == ["d", "e[1]", "f"]
    assert decode_json('{"a": NaN}', finite=True)[1] is not None
    assert decode_json('{"a": NaN}')[1] is None  # state files may hold what Python wrote


@pytest.mark.parametrize(("value", "kind"), [
    ('!!timestamp ""', "date or time"), ('!!int ""', "integer"), ('!!int "0x"', "integer"),
    ('!!float ""', "number"), ('!!float abc', "number"), ('!!bool x', "boolean"), ('!!bool ""', "boolean"),
])
def test_an_explicit_tag_on_text_it_cannot_read_names_its_key(value: str, kind: str) -> None:
    # PyYAML hands an explicitly tagged scalar to its constructor unchecked; the constructors
    # then fail with IndexError/KeyError/AttributeError (found by the deep fuzz tier in CI).
    res = decode_yaml(f"a:\n  b: {value}\n")
    (p,) = res.problems
    assert p.path == "a.b" and res.lines["a.b"] == 2
    assert f"is not a valid {kind}" in p.message and "quote it" in p.message


def test_explicit_tags_on_good_text_still_read() -> None:
    res = decode_yaml('a: !!int "7"\nb: !!float "1.5"\nc: !!bool "true"\nd: !!str 7\n')
    assert not res.problems and res.data == {"a": 7, "b": 1.5, "c": True, "d": "7"}


def test_duplicates() -> None:
    (p,) = decode_yaml("a: 1\nb: 2\na: 3\n").problems
    assert (p.path, p.line) == ("a", 3)
    assert decode_json('{"a": 1, "a": 2}', reject_duplicates=True)[1] is not None
    assert decode_json('{"a": 1, "a": 2}')[0] == {"a": 2}


def test_invalid_text() -> None:
    (p,) = decode_yaml("a: [1,\n").problems
    assert p.message.startswith("invalid YAML") and p.line is not None
    (p,) = decode_yaml("a: \ud800\n").problems
    assert "not valid Unicode" in p.message
    assert decode_json("{x")[1] is not None


def test_check_tree_visits_a_shared_container_once() -> None:
    shared: list[object] = [1.5] * 10
    data = {"a": [shared] * 100_000}
    assert check_tree(data) == []


def test_json_line_map_matches_the_yaml_one() -> None:
    doc = {"goalkeeper": 1, "goal": {"a": True}, "facts": {"a": {"observe": {"command": ["x", "y"]}}},
           "actions": {"go": {"pre": {"a": False}, "effects": {"a": True}, "run": ["a", "b", {"c": 1}]}},
           "odd key \"q\"": [[1, 2], {"x": []}]}
    for text in (json.dumps(doc, indent=2), json.dumps(doc), json.dumps(doc, indent=1).replace("\n", "\n\n")):
        assert json_line_map(text) == decode_yaml(text).lines
