"""Lint: each anti-pattern is reported with its key path and a fix; clean specs stay quiet."""

from __future__ import annotations

import textwrap

import pytest

from goalkeeper.errors import SpecError
from goalkeeper.model.lint import LINTS, lint, register_lint, require_runnable
from goalkeeper.model.loader import parse_spec_text
from goalkeeper.model.spec import Spec

CLEAN = """
goalkeeper: 1
goal: {deployed: true}
facts:
  built: {observe: {command: "test -f app"}}
  deployed: {observe: {file: deployed.flag}}
  fast_build: {observe: {command: "test -f cache"}}
actions:
  build: {pre: {built: false}, effects: {built: true}, cost: 3}
  warm_build: {pre: {built: false, fast_build: true}, effects: {built: true}}
  deploy: {pre: {built: true}, effects: {deployed: true}}
  redeploy: {pre: {deployed: false, fast_build: true}, effects: {deployed: true}, cost: 5}
"""


def spec(text: str) -> Spec:
    return parse_spec_text(textwrap.dedent(text), source="t.yaml")


def codes(text: str) -> list[tuple[str, str, str]]:
    return [(i.code, i.severity, i.path) for i in lint(spec(text))]


def test_clean_spec_has_no_findings() -> None:
    assert codes(CLEAN) == []


def test_script_as_plan() -> None:
    found = lint(spec("""
        goalkeeper: 1
        goal: {c: true}
        facts: {a: {observe: {command: x}}, b: {observe: {command: y}}, c: {observe: {command: z}}}
        actions:
          one: {pre: {a: false}, effects: {a: true}}
          two: {pre: {a: true}, effects: {b: true}}
          three: {pre: {b: true}, effects: {c: true}}
    """))
    [issue] = [i for i in found if i.code == "script-as-plan"]
    assert issue.path == "actions" and issue.severity == "warning"
    assert "checklist is cheaper" in issue.message and "one → two → three" in issue.message
    assert issue.line is not None


def test_prose_goal_and_diagnostic_goal() -> None:
    found = codes("""
        goalkeeper: 1
        goal: {status: "the site is fast and users are happy", seen: true}
        facts:
          status: {type: str, observe: {command: x}}
          seen: {diagnostic: true, observe: {command: y}}
        actions:
          a: {pre: {seen: false}, effects: {status: ok, seen: true}}
    """)
    assert ("prose-goal", "warning", "goal.status") in found
    assert ("diagnostic-goal", "warning", "goal.seen") in found


def test_action_without_preconditions_unless_it_observes() -> None:
    found = lint(spec("""
        goalkeeper: 1
        goal: {done: true}
        facts: {done: {observe: {command: "test -f d"}}, fresh: {observe: {command: "test -f f"}}}
        actions:
          do: {effects: {done: true}}
          check_fresh: {effects: {fresh: true}}
    """))
    [issue] = [i for i in found if i.code == "no-precondition"]
    assert issue.path == "actions.do.pre" and "pre: {done: false}" in issue.message


def test_observer_lints_and_require_runnable() -> None:
    text = """
        goalkeeper: 1
        goal: {a: true}
        facts:
          a: {observe: {command: [test, -f, x]}}
          b: {observe: {command: [test, -f, x]}}
          c: {}
        actions:
          set_a: {pre: {a: false, b: true, c: true}, effects: {a: true}}
    """
    found = codes(text)
    assert ("two-observers", "warning", "facts.b.observe") in found
    assert ("no-observer", "error", "facts.c") in found  # as `run` refuses it
    with pytest.raises(SpecError) as e:
        require_runnable(spec(text))
    assert [(i.path, i.severity) for i in e.value.issues] == [("facts.c", "error")]


def test_unreachable_goal_error_and_warning() -> None:
    found = codes("""
        goalkeeper: 1
        goal: {ghost: true, external: true}
        facts:
          ghost: {}
          external: {observe: {http: "http://127.0.0.1:9/ok"}}
        actions: {}
    """)
    assert ("unreachable-goal", "error", "goal.ghost") in found
    assert ("unreachable-goal", "warning", "goal.external") in found


def test_unbounded_no_op_and_duplicate_actions() -> None:
    found = codes("""
        goalkeeper: 1
        goal: {lit: true}
        facts: {lit: {observe: {command: x}}, level: {type: int, observe: {command: y}}}
        actions:
          switch: {pre: {lit: false}, effects: {lit: true}}
          flip: {pre: {lit: false}, effects: {lit: true}, cost: 2}
          noop: {pre: {lit: true}, effects: {lit: true}}
          still: {pre: {level: {in: [3]}, lit: false}, effects: {level: 3}}
          nothing: {pre: {lit: false}}
        policy: {max_ticks: null}
    """)
    assert ("unbounded-loop", "warning", "policy.max_ticks") in found
    assert ("duplicate-action", "warning", "actions.flip") in found
    assert ("no-op", "warning", "actions.noop.effects") in found
    assert ("no-op", "warning", "actions.still.effects") in found
    assert ("no-op", "warning", "actions.nothing.effects") in found
    assert not any(c == "no-op" and p == "actions.switch.effects" for c, _, p in found)


def test_registry_accepts_project_lints() -> None:
    @register_lint("test-only")
    def _mine(s: Spec) -> list:  # type: ignore[type-arg]
        return []

    try:
        assert "test-only" in LINTS and lint(spec(CLEAN)) == []
    finally:
        del LINTS["test-only"]
