"""model.loader: files to Spec, with key paths and source lines in every issue."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.errors import SpecError, SpecIssue
from goalkeeper.model import load_spec, parse_spec_text

WritePath = Callable[..., Path]


def load_issues(path: Path) -> list[SpecIssue]:
    with pytest.raises(SpecError) as ei:
        load_spec(path)
    assert ei.value.source == str(path)
    return ei.value.issues


def test_yaml_and_json_examples_load_to_the_same_spec(specs_dir: Path) -> None:
    y = load_spec(specs_dir / "web.yaml")
    j = load_spec(specs_dir / "web.json")
    assert y.model_dump() == j.model_dump()
    assert y.goal_conditions == j.goal_conditions
    assert y.name == "web"


def test_unknown_fact_names_path_line_and_suggestion(specs_dir: Path) -> None:
    path = specs_dir / "typo.yaml"
    (issue,) = load_issues(path)
    assert issue.path == "actions.deploy.pre.image_bilt"
    assert issue.line == 12
    assert issue.message == "unknown fact (did you mean image_built?)"
    assert issue.code == "unknown-fact"
    assert issue.format(str(path)) == (
        f"{path}:12: actions.deploy.pre.image_bilt: unknown fact (did you mean image_built?)"
    )


def test_every_issue_gets_its_own_line(write_spec: WritePath) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal:
          deployed: true
          speed: {"<": 3}
        facts:
          deployed: {}
          speed: {type: int, initial: fast}
        actions:
          deploy:
            pre:
              built: true
            effects:
              deployed: 1
        """
    )
    got = {i.path: i.line for i in load_issues(p)}
    assert got == {
        "facts.speed.initial": 7,
        "actions.deploy.pre.built": 11,
        "actions.deploy.effects.deployed": 13,
    }


def test_shape_errors_carry_lines(write_spec: WritePath) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {tpye: bool}
        actions:
          finish:
            effects: {done: true}
            cost: 0
        polcy: {}
        """
    )
    got = {(i.path, i.line, i.message) for i in load_issues(p)}
    assert got == {
        ("facts.done.tpye", 4, "unknown key (did you mean type?)"),
        ("actions.finish.cost", 8, "cost must be a positive number (e.g. cost: 1)"),
        ("polcy", 9, "unknown key (did you mean policy?)"),
    }


def test_issue_inside_a_list_points_at_the_item_line(write_spec: WritePath) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal:
          n:
            in:
              - 1
              - two
        facts:
          n: {type: int}
        """
    )
    (issue,) = load_issues(p)
    assert issue.path == "goal.n.in[1]"
    assert issue.line == 6


def test_duplicate_yaml_keys_are_errors_with_lines(write_spec: WritePath) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {}
          done: {type: int}
        actions:
          a: {effects: {done: true}, cost: 1, cost: 2}
        """
    )
    got = {(i.path, i.line, i.code) for i in load_issues(p)}
    assert got == {("facts.done", 5, "duplicate"), ("actions.a.cost", 7, "duplicate")}


def test_invalid_yaml_reports_line(write_spec: WritePath) -> None:
    p = write_spec("goalkeeper: 1\ngoal:\n  done: true\n facts: [\n")
    (issue,) = load_issues(p)
    assert issue.message.startswith("invalid YAML:")
    assert issue.line == 4


def test_invalid_json_reports_line(write_spec: WritePath) -> None:
    p = write_spec('{\n  "goalkeeper": 1,\n  "goal": {"done": true},\n  "facts": {,}\n}\n', "spec.json")
    (issue,) = load_issues(p)
    assert issue.message.startswith("invalid JSON:")
    assert issue.line == 4


def test_json_spec_errors_have_lines(write_spec: WritePath) -> None:
    p = write_spec(
        '{\n  "goalkeeper": 1,\n  "goal": {"done": true},\n  "facts": {\n    "done": {}\n  },\n'
        '  "actions": {\n    "go": {"pre": {"dnoe": true}, "effects": {"done": true}}\n  }\n}\n',
        "s.json",
    )
    (issue,) = load_issues(p)
    assert issue.path == "actions.go.pre.dnoe"
    assert issue.line == 8
    assert "did you mean done?" in issue.message


def test_prose_goal_in_a_file(write_spec: WritePath) -> None:
    p = write_spec('goalkeeper: 1\ngoal: "make it fast"\nfacts:\n  done: {}\n')
    (issue,) = load_issues(p)
    assert "the goal is prose" in issue.message


    (issue,) = load_issues(p)
    assert (issue.path, issue.line) == ("goal", 2)


def test_two_observers_in_a_file(write_spec: WritePath) -> None:
    p = write_spec(
        """\
        goalkeeper: 1
        goal: {up: true}
        facts:
          up:
            observe:
              command: curl -f http://x
              http: http://x
        """
    )
    (issue,) = load_issues(p)
    assert issue.path == "facts.up.observe"
    assert issue.line == 5
    assert "ONE observer" in issue.message


def test_non_string_fact_name_is_reported_at_its_line(write_spec: WritePath) -> None:
    p = write_spec("goalkeeper: 1\ngoal: {on: true}\nfacts:\n  on: {}\n")
    issues = load_issues(p)
    assert all(i.line is not None and "[key]" not in i.path for i in issues)


def test_missing_file(tmp_path: Path) -> None:
    (issue,) = load_issues(tmp_path / "nope.yaml")
    assert issue.message == "file not found"


@pytest.mark.parametrize("name", ["spec.txt", "spec", "spec.toml"])
def test_wrong_extension(tmp_path: Path, name: str) -> None:
    p = tmp_path / name
    p.write_text("goalkeeper: 1\n")
    (issue,) = load_issues(p)
    assert "unsupported file type" in issue.message
    assert "use .yaml, .yml or .json" in issue.message


def test_yml_extension_is_accepted(specs_dir: Path, tmp_path: Path) -> None:
    p = tmp_path / "web.yml"
    p.write_text((specs_dir / "minimal.yaml").read_text())
    assert load_spec(p).name == "web"


def test_directory_is_not_readable_as_spec(tmp_path: Path) -> None:
    d = tmp_path / "dir.yaml"
    d.mkdir()
    (issue,) = load_issues(d)
    assert issue.message.startswith("cannot read the file")


def test_empty_file(write_spec: WritePath) -> None:
    (issue,) = load_issues(write_spec(""))
    assert "a spec is a mapping" in issue.message


def test_name_defaults_to_file_stem_or_folder(write_spec: WritePath) -> None:
    body = "goalkeeper: 1\ngoal: {done: true}\nfacts: {done: {}}\n"
    assert load_spec(write_spec(body, "deploy-site.yaml")).name == "deploy-site"
    assert load_spec(write_spec(body, "shop/spec.yaml")).name == "shop"
    assert load_spec(write_spec("name: given\n" + body, "x.yaml")).name == "given"


def test_parse_spec_text_without_file() -> None:
    spec = parse_spec_text("goalkeeper: 1\ngoal: {done: true}\nfacts: {done: {}}\n")
    assert spec.name is None
    with pytest.raises(SpecError) as ei:
        parse_spec_text("goalkeeper: 1\ngoal: {dnoe: true}\nfacts: {done: {}}\n", source="inline")
    assert str(ei.value) == "inline:2: goal.dnoe: unknown fact (did you mean done?)"


def test_parse_spec_text_json() -> None:
    spec = parse_spec_text('{"goalkeeper": 1, "goal": {"n": 3}, "facts": {"n": {"type": "int"}}}', json_format=True)
    assert spec.goal_conditions[0].value == 3


def test_unquoted_yaml_word_in_argv_names_the_item(tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text("goalkeeper: 1\ngoal: {a: true}\nfacts:\n  a: {observe: {file: a}}\n"
                 "actions:\n  x: {effects: {a: true}, run: [true]}\n")
    with pytest.raises(SpecError) as ei:
        load_spec(p)
    assert [(i.path, i.line) for i in ei.value.issues] == [("actions.x.run[0]", 6)]
    assert "quote it" in ei.value.issues[0].message
