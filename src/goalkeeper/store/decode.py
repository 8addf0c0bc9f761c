"""JSON and YAML decoding with limits, for text that may be hostile.

Pure functions: text in, data and problems out (each with a key path and, where
known, a line). What is bounded:

- nesting depth (``MAX_DEPTH``), counted *after* alias expansion for YAML;
- YAML alias expansion (``MAX_NODES`` nodes in all, so a 12-line "billion laughs"
  is refused in milliseconds) and recursive aliases;
- integers past Python's 4,300-digit conversion limit, invalid YAML dates, and
  (optionally) NaN and infinities: each becomes a problem at its key path
  instead of a ``ValueError`` from inside the parser.

A YAML document is first scanned as an event stream (iterative, so deep nesting
cannot overflow the stack), then composed once; its line map is built from that
node graph without ever following an alias, then it is constructed.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "LineMap",
    "Problem",
    "YamlResult",
    "check_tree",
    "decode_json",
    "decode_yaml",
    "json_line_map",
    "json_text",
]

MAX_DEPTH = 100  # no goalkeeper file nests past about 8 levels
MAX_NODES = 2_000_000  # values after alias expansion; a 5,000-action spec has about 100,000
LineMap = dict[str, int]
_SCAN_ABOVE = 4 << 20  # two characters per node at least: 4 MiB cannot exceed MAX_NODES

try:  # libyaml parses in C, several times faster; the constructor stays in Python either way
    from yaml import CSafeLoader as _Base
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeLoader as _Base  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a document was refused: where (key path, line) and what."""

    path: str
    message: str
    line: int | None = None


class _Bad:
    """A value the parser could not turn into Python (reported at its key path)."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


_TOO_LONG = ("an integer with more than 4,300 digits (Python's limit for reading numbers); "
             "write a smaller number or quote it as a string")


class _Loader(_Base):
    """SafeLoader whose number and date errors become values reported by ``check_tree``."""


def _guarded(kind: str, build: Any) -> Any:
    """A scalar constructor whose failures become a value reported at its key path.

    PyYAML trusts the resolver: an explicit tag (``!!int ""``, ``!!bool x``,
    ``!!timestamp ""``) reaches the constructor with text it never matched, and the
    constructor fails with whatever Python raises there (IndexError, KeyError,
    AttributeError...). Each of those is the author's mistake, not ours.
    """

    def construct(loader: Any, node: yaml.ScalarNode) -> Any:
        try:
            return build(loader, node)
        except ValueError as e:
            if "Exceeds the limit" in str(e):
                return _Bad(_TOO_LONG)
            return _Bad(_not_a(kind, node, e))
        except (OverflowError, AttributeError, IndexError, KeyError, TypeError) as e:
            return _Bad(_not_a(kind, node, e))

    return construct


def _not_a(kind: str, node: yaml.ScalarNode, e: Exception) -> str:
    shown = repr(node.value) if len(node.value) <= 40 else repr(node.value[:40]) + "..."
    why = f" ({e})" if isinstance(e, (ValueError, OverflowError)) and str(e) else ""
    return f"{shown} is not a valid {kind}{why}; quote it to make it text (or drop an explicit !! tag)"


_SC = yaml.constructor.SafeConstructor
for _tag, _kind, _build in (("int", "integer", _SC.construct_yaml_int),
                            ("float", "number", _SC.construct_yaml_float),
                            ("bool", "boolean (true or false)", _SC.construct_yaml_bool),
                            ("timestamp", "date or time", _SC.construct_yaml_timestamp)):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _guarded(_kind, _build))


def _join(labels: list[str]) -> str:
    out = ""
    for lab in labels:
        if lab.startswith("["):
            out += lab
        elif lab:
            out += f".{lab}" if out else lab
    return out


@dataclass(slots=True)
class _Frame:
    label: str
    is_map: bool
    anchor: str | None
    nodes: int = 1
    height: int = 0
    expect_key: bool = True
    key: str = "?"
    index: int = 0


def _place(stack: list[_Frame], ev: Any) -> str:
    """The key-path label of the node ``ev`` starts, advancing its parent's state."""
    if not stack:
        return ""
    top = stack[-1]
    if not top.is_map:
        top.index += 1
        return f"[{top.index - 1}]"
    if top.expect_key:
        top.key = str(ev.value) if isinstance(ev, yaml.ScalarEvent) else "?"
        top.expect_key = False
        return "?"
    top.expect_key = True
    return top.key


def _scan(text: str, max_depth: int, max_nodes: int) -> Problem | None:
    """Depth and alias expansion from the event stream, before anything is built."""
    anchors: dict[str, tuple[int, int]] = {}  # anchor -> (expanded nodes, height)
    stack: list[_Frame] = []
    total = 0

    def where(label: str) -> str:
        return _join([f.label for f in stack] + [label])

    for event in yaml.parse(text, Loader=_Loader):
        ev: Any = event  # node events carry .anchor, which the stubs only declare on subclasses
        cls = type(ev)
        line = ev.start_mark.line + 1 if ev.start_mark is not None else None
        if cls is yaml.ScalarEvent or cls is yaml.AliasEvent:
            label = _place(stack, ev)
            if cls is yaml.AliasEvent:
                if ev.anchor not in anchors:
                    if any(f.anchor == ev.anchor for f in stack):
                        return Problem(where(label), f"alias *{ev.anchor} is inside the value it names "
                                       "(a recursive alias); goalkeeper files cannot be cyclic", line)
                    continue  # an undefined alias: composing reports it with its line
                nodes, height = anchors[ev.anchor]
            else:
                nodes, height = 1, 0
                if ev.anchor:
                    anchors[ev.anchor] = (1, 0)
            total += nodes
            if total > max_nodes:
                return Problem(where(label), f"aliases expand to more than {max_nodes:,} values "
                               "(an alias bomb?); write the values out or use fewer aliases", line)
            if len(stack) + height + 1 > max_depth:
                return Problem(where(label), f"nested deeper than {max_depth} levels once aliases "
                               "are expanded", line)
            if stack:
                stack[-1].nodes += nodes
                stack[-1].height = max(stack[-1].height, height + 1)
        elif cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent:
            label = _place(stack, ev)
            total += 1
            stack.append(_Frame(label, cls is yaml.MappingStartEvent, ev.anchor))
            if len(stack) > max_depth:
                return Problem(where(""), f"nested deeper than {max_depth} levels", line)
        elif cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
            f = stack.pop()
            if f.anchor:
                anchors[f.anchor] = (f.nodes, f.height)
            if stack:
                stack[-1].nodes += f.nodes
                stack[-1].height = max(stack[-1].height, f.height + 1)
    return None


def _line_map(root: yaml.Node | None, dups: list[Problem]) -> LineMap:
    """Key path -> line, from the composed graph; a node reached again (an alias) is skipped."""
    out: LineMap = {}
    seen: set[int] = set()
    todo: list[tuple[yaml.Node, str]] = [(root, "")] if root is not None else []
    while todo:
        node, prefix = todo.pop()
        if id(node) in seen:
            continue  # an alias: its content is mapped where its anchor is
        seen.add(id(node))
        children: list[tuple[yaml.Node, str]] = []
        if isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for k, v in node.value:
                key = str(k.value) if isinstance(k, yaml.ScalarNode) else "?"
                path = f"{prefix}.{key}" if prefix else key
                if key in keys and key != "<<":
                    dups.append(Problem(path, "duplicate key; the later one would silently replace the "
                                        "earlier", k.start_mark.line + 1))
                keys.add(key)
                out.setdefault(path, k.start_mark.line + 1)
                children.append((v, path))
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                path = f"{prefix}[{i}]"
                out.setdefault(path, v.start_mark.line + 1)
                children.append((v, path))
        todo.extend(reversed(children))
    return out


@dataclass(slots=True)
class YamlResult:
    data: Any = None
    lines: LineMap = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def decode_yaml(text: str, *, lines: bool = True, finite: bool = True, max_depth: int = MAX_DEPTH,
                max_nodes: int = MAX_NODES) -> YamlResult:
    """One YAML document, bounded; ``problems`` is empty when ``data`` can be used."""
    res = YamlResult()
    try:
        # Without an anchor there is no alias, and a text this short holds fewer nodes than
        # the limit; depth is then checked after construction (which PyYAML does iteratively).
        if "&" in text or len(text) > _SCAN_ABOVE:
            problem = _scan(text, max_depth, max_nodes)
            if problem is not None:
                res.problems.append(problem)
                return res
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if lines:
                dups: list[Problem] = []
                res.lines = _line_map(node, dups)
                if dups:
                    res.problems.extend(dups)
                    return res
            res.data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        res.problems.append(Problem("", f"invalid YAML: {e.problem or e}", mark.line + 1 if mark else None))
        return res
    except yaml.YAMLError as e:
        res.problems.append(Problem("", f"invalid YAML: {e}"))
        return res
    except UnicodeError:
        res.problems.append(Problem("", "the text is not valid Unicode (a lone surrogate?); save it as UTF-8"))
        return res
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        res.problems.append(Problem("", f"invalid YAML: {type(e).__name__}: {e}"))
        return res
    res.problems.extend(check_tree(res.data, finite=finite, max_depth=max_depth))
    return res


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


def _json_int(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return _Bad(_TOO_LONG)


def decode_json(text: str, *, finite: bool = False, reject_duplicates: bool = False,
                max_depth: int = MAX_DEPTH) -> tuple[Any, Problem | None]:
    """One JSON document, bounded: (data, None) or (None, the first problem)."""
    try:
        data = json.loads(text, parse_int=_json_int,
                          object_pairs_hook=_no_duplicates if reject_duplicates else None)
    except json.JSONDecodeError as e:
        return None, Problem("", f"not valid JSON ({e.msg}, column {e.colno})", e.lineno)
    except _Duplicate as e:
        return None, Problem(str(e), "duplicate key; the later one would silently replace the earlier")
    except RecursionError:
        return None, Problem("", f"nested deeper than {max_depth} levels")
    except (ValueError, TypeError, OverflowError) as e:  # defensive: json raises few others
        return None, Problem("", f"not valid JSON ({e})")
    problems = check_tree(data, finite=finite, max_depth=max_depth, first=True)
    return (None, problems[0]) if problems else (data, None)


_Where = tuple[Any, Any] | None  # (parent, key) links, joined into a key path only when reported


def _path_of(where: _Where) -> str:
    keys: list[Any] = []
    while where is not None:
        where, key = where
        keys.append(key)
    out = ""
    for key in reversed(keys):
        if isinstance(key, int) and not isinstance(key, bool):
            out += f"[{key}]"
        else:
            out += f".{key}" if out else str(key)
    return out


_SCALARS = (str, int, bool, type(None))


def check_tree(data: Any, *, finite: bool = True, max_depth: int = MAX_DEPTH,
               first: bool = False, most: int = 20) -> list[Problem]:
    """Values no goalkeeper file may hold: too deep, unreadable numbers, NaN/inf (``finite``).

    Iterative; only containers go on the stack and a key path is only built for a
    problem; a container shared through YAML aliases is checked once.
    """
    problems: list[Problem] = []
    limit = 1 if first else most

    def bad(v: Any, where: _Where) -> bool:
        t = type(v)
        if t is float:
            if finite and not math.isfinite(v):
                problems.append(Problem(_path_of(where), f"{v} is not a finite number; write a number"))
            return True
        if t is _Bad:
            problems.append(Problem(_path_of(where), v.message))
            return True
        return False

    if not isinstance(data, Mapping | list | tuple | set | frozenset):
        bad(data, None)
        return problems
    seen: set[int] = set()
    todo: list[tuple[Any, int, _Where]] = [(data, 0, None)]
    while todo and len(problems) < limit:
        obj, depth, where = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if depth >= max_depth:
            problems.append(Problem(_path_of(where), f"nested deeper than {max_depth} levels"))
            continue
        if isinstance(obj, Mapping):
            items: Any = obj.items()
            for k in obj:
                if type(k) is not str:
                    bad(k, where)
        else:
            items = enumerate(obj)
        for k, v in items:
            if type(v) in _SCALARS or bad(v, (where, k)):
                continue
            if isinstance(v, Mapping | list | tuple | set | frozenset):
                todo.append((v, depth + 1, (where, k)))
    return problems[:limit]


def json_text(data: Any, indent: int | None = None) -> str:
    """JSON as goalkeeper writes it (ASCII; unknown objects as their ``str``)."""
    return json.dumps(data, indent=indent, default=str)


_JSON_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\],:\n]|[^\s{}\[\],:"]+')


def json_line_map(text: str) -> LineMap:
    """Key path -> line of a JSON document that already parsed, from a token scan.

    About ten times cheaper than composing the text as YAML; nothing is built.
    Each stack frame is ``[is_object, path, key, index, expect_key]``.
    """
    out: LineMap = {}
    stack: list[list[Any]] = []
    line = 1
    for m in _JSON_TOKEN.finditer(text):
        tok = m.group()
        c = tok[0]
        if c == "\n":
            line += 1
            continue
        if c == ":":
            stack[-1][4] = False
            continue
        if c == ",":
            frame = stack[-1]
            if frame[0]:
                frame[4] = True
            else:
                frame[3] += 1
            continue
        if c in "}]":
            stack.pop()
            continue
        parent = stack[-1] if stack else None
        if parent is not None and parent[0] and parent[4]:  # a key
            key = tok[1:-1]
            if "\\" in key:
                with contextlib.suppress(ValueError):
                    key = str(json.loads(tok))
            parent[2] = key
            out.setdefault(f"{parent[1]}.{key}" if parent[1] else key, line)
            continue
        if parent is None:
            path = ""
        elif parent[0]:
            path = f"{parent[1]}.{parent[2]}" if parent[1] else parent[2]
        else:
            path = f"{parent[1]}[{parent[3]}]"
            out.setdefault(path, line)
        if c in "{[":
            stack.append([c == "{", path, "", 0, True])
    return out
