"""Read a spec file (YAML or JSON) into a validated ``Spec``.

Every problem becomes a ``SpecIssue`` with its key path and, where the source
text is available, its line, so the message points at what to fix.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from ..errors import SpecError, SpecIssue
from .spec import Spec, suggest

__all__ = ["LineMap", "load_spec", "parse_spec_text", "spec_from_data"]

LineMap = dict[str, int]
SUFFIXES = (".yaml", ".yml", ".json")


def load_spec(path: str | Path) -> Spec:
    """Load and validate a spec file; raise ``SpecError`` naming every problem."""
    p = Path(path)
    source = str(path)
    if p.suffix.lower() not in SUFFIXES:
        raise SpecError(
            [SpecIssue("", f"unsupported file type {p.suffix or '(none)'!r}; use .yaml, .yml or .json")],
            source,
        )
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError([SpecIssue("", "file not found")], source) from None
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError([SpecIssue("", f"cannot read the file: {e}")], source) from None
    data, lines = _parse(text, source, p.suffix.lower() == ".json")
    if isinstance(data, Mapping) and data.get("name") is None:
        # Unnamed specs take the file name (or the folder of a spec.yaml).
        data = {**data, "name": p.parent.name if p.stem == "spec" else p.stem}
    return spec_from_data(data, source=source, lines=lines)


def parse_spec_text(text: str, *, source: str | None = None, json_format: bool = False) -> Spec:
    data, lines = _parse(text, source, json_format)
    return spec_from_data(data, source=source, lines=lines)


def spec_from_data(
    data: Any, *, source: str | None = None, lines: LineMap | None = None
) -> Spec:
    lines = lines or {}
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
    return _with_lines(issues, spec._cache.get("lines") or {})


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


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


class _DuplicateKey(ValueError):
    pass


def _parse(text: str, source: str | None, json_format: bool) -> tuple[Any, LineMap]:
    if json_format:
        try:
            data = json.loads(text, object_pairs_hook=_reject_duplicates)
        except json.JSONDecodeError as e:
            raise SpecError([SpecIssue("", f"invalid JSON: {e.msg} (column {e.colno})", e.lineno)], source) from None
        except _DuplicateKey as e:
            raise SpecError(
                [SpecIssue(str(e), "duplicate key; the later one would silently replace the earlier", code="duplicate")],
                source,
            ) from None
        try:
            lines = _line_map(yaml.compose(text, Loader=yaml.SafeLoader))
        except yaml.YAMLError:
            lines = {}
        return data, lines
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as e:
        line = e.problem_mark.line + 1 if e.problem_mark else None
        raise SpecError([SpecIssue("", f"invalid YAML: {e.problem or e}", line)], source) from None
    except yaml.YAMLError as e:
        raise SpecError([SpecIssue("", f"invalid YAML: {e}")], source) from None
    dups: list[SpecIssue] = []
    lines = _line_map(node, dups=dups)
    if dups:
        raise SpecError(dups, source)
    return data, lines


def _line_map(
    node: yaml.Node | None, prefix: str = "", out: LineMap | None = None, dups: list[SpecIssue] | None = None
) -> LineMap:
    out = {} if out is None else out
    if node is None:
        return out
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for k, v in node.value:
            key = str(k.value)
            path = f"{prefix}.{key}" if prefix else key
            if key in seen and dups is not None:
                dups.append(
                    SpecIssue(path, "duplicate key; the later one would silently replace the earlier",
                              k.start_mark.line + 1, code="duplicate")
                )
            seen.add(key)
            out[path] = k.start_mark.line + 1
            _line_map(v, path, out, dups)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            path = f"{prefix}[{i}]"
            out[path] = v.start_mark.line + 1
            _line_map(v, path, out, dups)
    return out


def _with_lines(issues: list[SpecIssue], lines: LineMap) -> list[SpecIssue]:
    out = []
    for i in issues:
        line = i.line
        path = i.path
        while line is None and path:
            line = lines.get(path)
            if line is None:
                path = path.rsplit(".", 1)[0] if "." in path else ""
        out.append(SpecIssue(i.path, i.message, line, i.severity, i.code))
    return out


def _dedupe(issues: list[SpecIssue]) -> list[SpecIssue]:
    # A value that is neither a string nor a list of strings (e.g. `run: [true]`) fails both
    # union branches; keep the more precise item-level error only.
    paths = {i.path for i in issues}
    issues = [i for i in issues if not any(p.startswith(i.path + "[") for p in paths)]
    seen: set[tuple[str, str]] = set()
    out = []
    for i in issues:
        if (i.path, i.message) not in seen:
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
