"""Hypothesis strategies for hostile input: mutated specs and state files, bombs, deep nesting.

Shared by the bounded tests in this folder (a few seconds each, derandomized, so
the normal suite is stable) and by ``deep.py`` (random, for long runs).
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import strategies as st

VALID_SPEC: dict[str, Any] = {
    "goalkeeper": 1,
    "name": "fuzz",
    "goal": {"deployed": True, "lcp": {"<": 2500}},
    "facts": {
        "built": {"observe": {"command": ["test", "-f", "built"]}},
        "deployed": {"observe": {"file": "deployed"}},
        "lcp": {"type": "float", "observe": {"http": "http://127.0.0.1:9/lcp", "parse": "number"}},
        "mode": {"type": "str", "initial": "a", "observe": {"command": "echo a"}},
    },
    "actions": {
        "build": {"pre": {"built": False}, "effects": {"built": True}, "run": ["touch", "built"]},
        "deploy": {"pre": {"built": True, "mode": {"in": ["a", "b"]}}, "effects": {"deployed": True},
                   "run": "touch deployed"},
        "optimize": {"effects": {"lcp": 2000}, "cost": 2},
    },
    "policy": {"max_ticks": 10},
}
VALID_YAML = yaml.safe_dump(VALID_SPEC, sort_keys=False)
VALID_JSON = json.dumps(VALID_SPEC, indent=2)

# Fragments a hostile author (or a broken editor) puts into a file.
TOKENS = [
    "&a ", "*a", "*b", "&b [*b]", "<<: *a\n", "[", "]", "{", "}", ": ", "- ", "\n", "  ", "\t", "? ", ",",
    "!!binary ", "!!bool ", "!!null ", "!!python/object/apply:os.system ['true'] ", "!!set ", "!!timestamp ", "!!float ", "!!int ",
    "9" * 5000, "-" + "9" * 4400, "0x" + "f" * 5000, "1e999", "-1e999", ".inf", ".nan", "NaN", "Infinity",
    '"\\ud800"', '"\\udfff"', "\x00", "\x1b[2J", "\x7f", "\u202e", "[bold red]", "[/]", "${UNSET_X}", "$(rm -rf /)",
    "---\n", "...\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "~", "null", "true", "off", "yes", "2001-13-45",
    "2001-02-29", "12:30:45:61", "'", '"', "#", "|\n", ">-\n", "\ufeff", "\r\n", "\r", "\u2028", "\ud83d\ude00",
    "goalkeeper: 1\n", "facts:", "actions:", "observe:", "effects:", "pre:", "in:", "run:", "cost: 0", "cost: -1",
]

_op = st.tuples(st.sampled_from(["insert", "delete", "replace", "duplicate", "truncate"]),
                st.floats(0, 1), st.floats(0, 1), st.sampled_from(TOKENS) | st.text(max_size=20))


def _apply(text: str, ops: list[tuple[str, float, float, str]]) -> str:
    for kind, a, b, token in ops:
        n = len(text)
        i = int(a * n)
        j = min(n, i + int(b * 40))
        if kind == "insert":
            text = text[:i] + token + text[i:]
        elif kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "replace":
            text = text[:i] + token + text[j:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] * 3 + text[j:]
        else:
            text = text[:i]
    return text


def mutated(base: str, max_ops: int = 6) -> st.SearchStrategy[str]:
    """``base`` with a few insertions, deletions, duplications or hostile tokens."""
    return st.lists(_op, min_size=1, max_size=max_ops).map(lambda ops: _apply(base, ops))


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from(["9" * 5000, "\ud800", "\x1b[31m", "[red]", "${X}", "-rf", "../../etc/passwd", "\x00"])
    | st.sampled_from([10**400, -(10**400), 2**63, 2**64, 10**4299, 1e308, -0.0]),  # past a float, past 64 bits
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)

_SLOTS: list[tuple[str, ...]] = [
    ("goal",), ("goal", "deployed"), ("goal", "lcp"), ("facts",), ("facts", "built"),
    ("facts", "built", "observe"), ("facts", "built", "observe", "command"), ("facts", "lcp", "observe", "http"),
    ("facts", "deployed", "observe", "python"), ("facts", "mode", "initial"), ("actions",),
    ("actions", "build"), ("actions", "build", "pre"), ("actions", "build", "effects"),
    ("actions", "build", "run"), ("actions", "deploy", "pre", "mode"), ("actions", "optimize", "cost"),
    ("policy",), ("policy", "max_ticks"), ("goalkeeper",), ("name",),
]


def _place(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    spec = json.loads(json.dumps(VALID_SPEC))
    node = spec
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return spec


structured_specs: st.SearchStrategy[dict[str, Any]] = st.builds(_place, st.sampled_from(_SLOTS), json_values)


def _deep(depth: int, kind: str) -> str:
    if kind == "flow":
        return f"goalkeeper: 1\ngoal: {{a: {'[' * depth}1{']' * depth}}}\nfacts: {{a: {{}}}}\n"
    if kind == "block":
        lines = "".join("  " * i + f"k{i}:\n" for i in range(depth))
        return f"goalkeeper: 1\ngoal:\n{lines}" + "  " * depth + "x: 1\n"
    return '{"goalkeeper": 1, "goal": ' + '{"a": ' * depth + "1" + "}" * depth + "}"


deep_texts: st.SearchStrategy[tuple[str, str]] = st.builds(
    lambda d, kind: (_deep(d, kind), "json" if kind == "json" else "yaml"),
    st.integers(50, 3000), st.sampled_from(["flow", "block", "json"]))


def _bomb(levels: int, fanout: int, recursive: bool) -> str:
    lines = [f"a0: &a0 [{', '.join(['lol'] * fanout)}]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * fanout)}]" for i in range(1, levels)]
    head = "goalkeeper: 1\n"
    if recursive:
        lines.append("r: &r {self: *r}")
    return head + "\n".join(lines) + f"\ngoal: {{done: *a{levels - 1}}}\nfacts: {{done: {{}}}}\n"


bombs: st.SearchStrategy[str] = st.builds(_bomb, st.integers(2, 14), st.integers(2, 12), st.booleans())

binary_blobs: st.SearchStrategy[bytes] = st.binary(max_size=300) | st.sampled_from(
    [b"\xff\xfe\x00\x00", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), b"\xc3\x28", b"\xed\xa0\x80", b"\x00" * 64])


def goal_document() -> dict[str, Any]:
    """A goal file as goalkeeper writes it (schema v1), used as the base for mutations."""
    return {
        "schemaVersion": 1, "goalId": "goal-fuzz0001", "objective": "make the tests pass", "state": "active",
        "stoppingConditions": [{"type": "test_pass", "command": "pytest -q"}],
        "budget": {"maxIterations": 3, "maxDuration": "1h", "maxDollars": 1.0},
        "maker": {"type": "command", "argv": ["true"]}, "oracle": {"model": "deterministic"},
        "workspace": "/nonexistent", "createdAt": "2026-01-01T00:00:00.000Z",
        "history": [{"iteration": 1, "phase": "done", "startedAt": "2026-01-01T00:00:00.000Z",
                     "conditionResults": [{"type": "test_pass", "command": "pytest -q", "passed": False,
                                           "exitCode": 1, "summary": "1 failed"}],
                     "oracleVerdict": "not_converged", "reasons": ["tests fail"], "nextHint": "fix add()"}],
    }


def state_mutations(doc: dict[str, Any]) -> st.SearchStrategy[str]:
    """Damaged versions of a state file: text mutations, values replaced by hostile trees, v0 shapes."""
    text = json.dumps(doc, indent=2)
    keys = sorted(doc)

    def replace(key: str, value: Any, drop_version: bool) -> str:
        d = dict(doc)
        d[key] = value
        if drop_version:
            d.pop("schemaVersion", None)  # the unversioned shape goes through the v0 migration
        return json.dumps(d)

    return (mutated(text) | st.builds(replace, st.sampled_from(keys), json_values, st.booleans())
            | st.sampled_from(["", "{", "null", "[]", '"x"', "[" * 5000, '{"a": ' + "9" * 5000 + "}",
                               json.dumps(doc)[: len(json.dumps(doc)) // 2]]))
