"""Turn an observer's raw output into a typed fact value. Pure functions.

Every parser raises ``ValueError`` with a short reason when the output does not
fit; the caller records the fact as unknown with that reason.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..model.conditions import check_value

__all__ = ["coerce", "first_number", "json_path", "parse_output"]

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def first_number(text: str) -> float | int:
    m = _NUMBER.search(text)
    if not m:
        raise ValueError("no number in the output")
    s = m.group(0)
    try:
        return int(s)
    except ValueError:
        return float(s)


def json_path(data: Any, path: str | None) -> Any:
    """Follow ``a.b[0].c`` into parsed JSON."""
    if not path:
        return data
    cur = data
    for m in _PATH_PART.finditer(path):
        key, idx = m.group(1), m.group(2)
        try:
            cur = cur[int(idx)] if idx is not None else cur[key]
        except (KeyError, IndexError, TypeError):
            raise ValueError(f"JSON path {path!r} not found") from None
    return cur


_TRUE = {"true", "yes", "on", "1", "ok"}
_FALSE = {"false", "no", "off", "0"}


def coerce(ftype: str, value: Any) -> Any:
    """Coerce a parsed value to the fact type, accepting common textual forms."""
    if ftype == "bool" and isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"cannot read {value.strip()[:40]!r} as true/false")
    if ftype in ("int", "float") and isinstance(value, str):
        value = first_number(value)
    if ftype == "str" and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    cv, err = check_value(ftype, value)
    if err:
        raise ValueError(err)
    return cv


def parse_output(ftype: str, parse: str, text: str, *, path: str | None = None,
                 pattern: str | None = None) -> Any:
    """Parse text output (stdout, file contents, HTTP body) with one of the text parsers."""
    if parse == "number":
        return coerce(ftype, first_number(text))
    if parse == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"output is not JSON ({e.msg})") from None
        return coerce(ftype, json_path(data, path))
    if parse == "regex":
        if not pattern:
            raise ValueError("parse: regex needs a pattern")
        m = re.search(pattern, text)
        if not m:
            if ftype == "bool":
                return False
            raise ValueError(f"pattern {pattern!r} not found in the output")
        if ftype == "bool" and not m.groups():
            return True
        return coerce(ftype, m.group(1) if m.groups() else m.group(0))
    if parse == "text":
        return coerce(ftype, text.strip())
    raise ValueError(f"parse {parse!r} does not apply here")
