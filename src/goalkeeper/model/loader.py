"""Read a spec file (YAML or JSON) into a validated ``Spec``.

Every problem becomes a ``SpecIssue`` with its key path and, where the source
text is available, its line, so the message points at what to fix.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import SpecError, SpecIssue
from ..store.decode import LineMap, decode_json, decode_yaml, json_line_map
from ..store.safe import MAX_SPEC_BYTES, Refuse, read_bounded
from .spec import Spec, suggest

__all__ = ["LineMap", "load_spec", "parse_spec_text", "spec_from_data"]

SUFFIXES = (".yaml", ".yml", ".json")


def _refuse(source: str) -> Refuse:
    return lambda problem: SpecError([SpecIssue("", f"cannot read the file: it {problem}", code="unreadable")],
                                     source)


def load_spec(path: str | Path) -> Spec:
    """Load and validate a spec file; raise ``SpecError`` naming every problem.

    The file must be a regular file (a FIFO never blocks, a device is refused)
    of at most 16 MiB; nesting, aliases and numbers are bounded (``store.decode``).
    """
    p = Path(path)
    source = str(path)
    if p.suffix.lower() not in SUFFIXES:
        raise SpecError(
            [SpecIssue("", f"unsupported file type {p.suffix or '(none)'!r}; use .yaml, .yml or .json")],
            source,
        )
    try:
        raw = read_bounded(p, limit=MAX_SPEC_BYTES, follow_symlinks=True, refuse=_refuse(source))
    except FileNotFoundError:
        raise SpecError([SpecIssue("", "file not found")], source) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise SpecError([SpecIssue("", f"not UTF-8 text (byte {e.start}); save the spec as UTF-8", line,
                                   code="unreadable")], source) from None
    data, lines = _parse(text, source, p.suffix.lower() == ".json")
    if isinstance(data, Mapping) and data.get("name") is None:
        # Unnamed specs take the file name (or the folder of a spec.yaml).
        data = {**data, "name": p.parent.name if p.stem == "spec" else p.stem}
    return spec_from_data(data, source=source, lines=lines)


def parse_spec_text(text: str, *, source: str | None = None, json_format: bool = False) -> Spec:
    data, lines = _parse(text, source, json_format)
    return spec_from_data(data, source=source, lines=lines)


def spec_from_data(
    data: Any, *, source: str | None = None, lines: Lines | None = None
) -> Spec:
    if not isinstance(data, Mapping):
        raise SpecError(
            [SpecIssue("", "a spec is a mapping with keys goalkeeper, goal, facts, actions", 1)],
            source,
        )
    bad_keys = list(_non_string_keys(data, ""))
    if bad_keys:
        raise SpecError(_with_lines(bad_keys, lines), source)
    try:
        spec = Spec.model_validate(data)
    except ValidationError as e:
        issues = [_from_pydantic(err, data) for err in e.errors()]
        raise SpecError(_with_lines(_dedupe(issues), lines), source) from None
    except SpecError as e:
        raise SpecError(_with_lines(e.issues, lines), source) from None
    spec._cache["lines"] = lines
    spec._cache["source"] = source
    return spec


def attach_lines(spec: Spec, issues: list[SpecIssue]) -> list[SpecIssue]:
    """Fill in source lines for issues found after loading (e.g. by lint)."""
    return _with_lines(issues, spec._cache.get("lines"))


# -- parsing with line numbers ---------------------------------------------


def _non_string_keys(data: Any, prefix: str) -> Any:
    """YAML 1.1 reads keys like on/off/yes/no/1 as non-strings; say so instead of a type error."""
    if isinstance(data, Mapping):
        for k, v in data.items():
            if not isinstance(k, str):
                yield SpecIssue(
                    prefix,
                    f"key {k!r} is not a name (YAML reads on/off/yes/no/true/false and numbers "
                    f"as values); quote it, e.g. '{_yaml_word(k)}'",
                    code="bad-key",
                )
                continue
            yield from _non_string_keys(v, f"{prefix}.{k}" if prefix else k)


def _yaml_word(k: Any) -> str:
    return {True: "on", False: "off"}.get(k, str(k)) if isinstance(k, bool) else str(k)


def _parse(text: str, source: str | None, json_format: bool) -> tuple[Any, Lines]:
    """Bounded decoding; YAML keeps a line map, JSON computes one only if an issue needs it."""
    if json_format:
        data, problem = decode_json(text, finite=True, reject_duplicates=True)
        if problem is not None:
            if problem.message.startswith("not valid JSON"):
                msg = "invalid JSON: " + problem.message[len("not valid JSON ("):].rstrip(")")
            else:
                msg = problem.message
            code = "duplicate" if "duplicate" in msg else ("invalid" if problem.line else "limit")
            raise SpecError(_with_lines([SpecIssue(problem.path, msg, problem.line, code=code)],
                                        _json_lines(text)), source)
        return data, _LazyLines(text)
    res = decode_yaml(text, lines=True, finite=True)
    if res.problems:
        issues = [SpecIssue(p.path, p.message, p.line,
                            code="duplicate" if "duplicate" in p.message else "invalid")
                  for p in res.problems]
        raise SpecError(_with_lines(issues, res.lines), source)
    return res.data, res.lines


class _LazyLines:
    """The line map of a JSON spec, built the first time an issue needs a line (it costs
    about as much as parsing, and a valid spec never needs it)."""

    def __init__(self, text: str) -> None:
        self._text: str | None = text
        self._map: LineMap | None = None

    def __call__(self) -> LineMap:
        if self._map is None:
            self._map = _json_lines(self._text or "")
            self._text = None
        return self._map


def _json_lines(text: str) -> LineMap:
    try:
        return json_line_map(text)
    except (IndexError, RecursionError):  # text that did not parse as JSON: no lines
        return {}


Lines = LineMap | _LazyLines


def _lines(lines: Lines | None) -> LineMap:
    if lines is None:
        return {}
    return lines() if isinstance(lines, _LazyLines) else lines


def _with_lines(issues: list[SpecIssue], lines: Lines | None) -> list[SpecIssue]:
    if not issues or all(i.line is not None for i in issues):
        return issues
    found = _lines(lines)
    out = []
    for i in issues:
        line = i.line
        path = i.path
        while line is None and path:
            line = found.get(path)
            if line is None:
                path = _parent(path)
        out.append(SpecIssue(i.path, i.message, line, i.severity, i.code))
    return out


def _parent(path: str) -> str:
    """``a.b[2].c`` -> ``a.b[2]`` -> ``a.b`` -> ``a``."""
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


def _dedupe(issues: list[SpecIssue]) -> list[SpecIssue]:
    # A value that is neither a string nor a list of strings (e.g. `run: [true]`) fails both
    # union branches; keep the more precise item-level error only. (Linear: a set of the
    # paths that have item-level issues below them.)
    has_items = {i.path[:k] for i in issues for k, c in enumerate(i.path) if c == "[" and k}
    seen: set[tuple[str, str]] = set()
    out = []
    for i in issues:
        if i.path in has_items or (i.path, i.message) in seen:
            continue
        seen.add((i.path, i.message))
        out.append(i)
    return out


# -- pydantic errors -> issues ------------------------------------------------


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class that owns the mapping at ``loc`` (for key suggestions)."""
    model: Any = Spec
    i = 0
    while i < len(loc):
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        field = model.model_fields.get(str(loc[i]))
        if field is None:
            return None
        ann = _unwrap(field.annotation)
        i += 1
        if typing.get_origin(ann) is dict:
            ann = _unwrap(typing.get_args(ann)[1])
            i += 1  # skip the free-form key
        model = ann
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _unwrap(ann: Any) -> Any:
    origin = typing.get_origin(ann)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        return models[0] if models else (args[0] if len(args) == 1 else ann)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(ann)[0])
    return ann


def _from_pydantic(err: Any, data: Any) -> SpecIssue:
    loc = tuple(err["loc"])
    typ = err["type"]
    msg = str(err["msg"])
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    # Drop union branch tags such as ('command', 'str') -> ('command',)
    clean: list[int | str] = []
    for part in loc:
        if isinstance(part, str) and (part in {"str", "list[str]", "float", "int", "bool"} or part.startswith("function-")):
            continue
        clean.append(part)
    path = _path(tuple(clean))
    if typ == "extra_forbidden":
        owner = _model_at(tuple(clean[:-1]))
        known = list(owner.model_fields) if owner else []
        hint = suggest(str(clean[-1]), known)
        allowed = f"; allowed keys: {', '.join(known)}" if known and not hint else ""
        return SpecIssue(path, f"unknown key{hint}{allowed}", code="unknown-key")
    if typ == "string_type" and clean and isinstance(clean[-1], int):
        return SpecIssue(path, "must be a string (YAML reads true/false/on/off and numbers as "
                         "values; quote it, e.g. 'true')", code=typ)
    if typ == "missing":
        return SpecIssue(path, "required key is missing", code="missing")
    if typ == "literal_error" and path == "goalkeeper":
        return SpecIssue(path, "unsupported format version; this goalkeeper reads `goalkeeper: 1`")
    if typ in ("greater_than", "greater_than_equal") and path.endswith(".cost"):
        return SpecIssue(path, "cost must be a positive number (e.g. cost: 1)", code="bad-cost")
    return SpecIssue(path, msg, code=typ)
