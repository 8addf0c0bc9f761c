"""model.vars: unset ${VAR} references are found with their key path; a runtime can refuse them."""

from __future__ import annotations

import textwrap

import pytest

from goalkeeper.errors import SpecError
from goalkeeper.model import parse_spec_text
from goalkeeper.model.vars import require_variables, unset_variables

SPEC = textwrap.dedent("""\
    goalkeeper: 1
    goal: {up: true}
    facts:
      up:
        observe:
          command: [curl, -f, "${BASE_URL}/health", "${TOKEN}"]
          env: {TOKEN: x, DERIVED: "${HOME_DIR}/x"}
      built: {observe: {file: "${OUT}/app"}}
      page: {type: str, observe: {http: "${BASE_URL}/"}}
    actions:
      build:
        pre: {built: false}
        effects: {built: true}
        run: [make, "OUT=${OUT}", "${GOALKEEPER_RUN_ID}", "${LOCAL}"]
        env: {LOCAL: "1"}
      deploy:
        pre: {built: true}
        effects: {up: true}
        run: "deploy --to ${TARGET}"
""")


def test_every_unset_reference_is_a_warning_with_its_path() -> None:
    spec = parse_spec_text(SPEC)
    found = {(i.path, i.message.split(" ")[0]) for i in unset_variables(spec, {})}
    assert found == {
        ("facts.up.observe.command[2]", "${BASE_URL}"),
        ("facts.up.observe.env.DERIVED", "${HOME_DIR}"),
        ("facts.built.observe.file", "${OUT}"),
        ("facts.page.observe.http", "${BASE_URL}"),
        ("actions.build.run[1]", "${OUT}"),
        ("actions.deploy.run", "${TARGET}"),
    }  # TOKEN and LOCAL come from the item's own env:, GOALKEEPER_RUN_ID from the runtime
    assert all(i.severity == "warning" and i.code == "unset-var" for i in unset_variables(spec, {}))


def test_a_set_variable_is_fine_even_when_empty() -> None:
    spec = parse_spec_text(SPEC)
    env = {"BASE_URL": "http://x", "HOME_DIR": "/h", "OUT": "", "TARGET": "prod"}
    assert unset_variables(spec, env) == []
    require_variables(spec, env)


def test_require_variables_refuses_with_lines() -> None:
    spec = parse_spec_text(SPEC, source="spec.yaml")
    with pytest.raises(SpecError) as ei:
        require_variables(spec, {"BASE_URL": "http://x", "HOME_DIR": "/h", "OUT": "o"})
    (issue,) = ei.value.issues
    assert (issue.path, issue.line, issue.severity) == ("actions.deploy.run", 19, "error")
    assert "export TARGET" in issue.message
