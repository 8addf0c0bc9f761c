"""A NUL byte where the OS takes a string (a command, an argument, a path, a variable) is a spec error
at its key path. YAML reads ``"\\0"`` as NUL, so it is one typo away; at run time it used to fail as
"'sh' cannot be started: not found on PATH", naming the wrong thing."""

from __future__ import annotations

import pytest

from goalkeeper.errors import SpecError
from goalkeeper.model import parse_spec_text

BASE = "goalkeeper: 1\ngoal: {done: true}\nfacts:\n  done: {observe: %s}\nactions:\n  a: %s\n"
OBSERVE = "{file: done.flag}"
ACTION = "{effects: {done: true}, run: [touch, done.flag]}"


@pytest.mark.parametrize(("observe", "action", "where"), [
    ('{command: [sh, -c, "echo \\0"]}', ACTION, "facts.done.observe.command"),
    ('{command: "test -f a\\0b"}', ACTION, "facts.done.observe.command"),
    ('{file: "done\\0.flag"}', ACTION, "facts.done.observe.file"),
    ('{file: done.flag, cwd: "\\0"}', ACTION, "facts.done.observe.cwd"),
    ('{file: done.flag, env: {X: "\\0"}}', ACTION, "facts.done.observe.env"),
    (OBSERVE, '{effects: {done: true}, run: [sh, -c, "printf \'\\033[2J\'"]}', "actions.a.run"),
    (OBSERVE, '{effects: {done: true}, run: "echo \\0"}', "actions.a.run"),
    (OBSERVE, '{effects: {done: true}, run: [touch, x], cwd: "a\\0"}', "actions.a.cwd"),
    (OBSERVE, '{effects: {done: true}, run: [touch, x], env: {"A\\0": "1"}}', "actions.a.env"),
])
def test_a_nul_byte_is_named_at_its_key(observe: str, action: str, where: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_spec_text(BASE % (observe, action), source="spec.yaml")
    (issue,) = err.value.issues
    assert issue.path == where and "NUL byte" in issue.message and issue.line == (4 if where[0] == "f" else 6)


def test_without_the_nul_the_same_spec_loads() -> None:
    parse_spec_text(BASE % ('{command: [sh, -c, "echo \\\\0"], env: {X: "1"}}', ACTION))
