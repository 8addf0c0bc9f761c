"""Conditions on facts: ``fact: value`` (equality) or ``fact: {op: value, ...}``.

Pure functions only. Evaluation treats an unknown value (``None``) as satisfying
no condition at all, so an agent never acts on a fact it could not observe.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "OPS",
    "OPS_FOR_TYPE",
    "Condition",
    "FactType",
    "check_value",
    "format_value",
    "parse_condition",
    "type_name",
]

FactType = Literal["bool", "int", "float", "str"]
OPS = ("==", "!=", "<", "<=", ">", ">=", "in")
OPS_FOR_TYPE: dict[str, tuple[str, ...]] = {
    "bool": ("==", "!=", "in"),
    "str": ("==", "!=", "in"),
    "int": OPS,
    "float": OPS,
}


@dataclass(frozen=True, slots=True)
class Condition:
    fact: str
    op: str
    value: Any  # a tuple for "in"
    # "in" tests membership in a set: a 100k-value list costs O(1) per test, not O(n)
    members: frozenset[Any] | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.op == "in" and self.members is None:
            with contextlib.suppress(TypeError):  # an unhashable value: plain tuple membership
                object.__setattr__(self, "members", frozenset(self.value))

    def holds(self, v: Any) -> bool:
        if v is None:
            return False
        op, ref = self.op, self.value
        if op == "==":
            return bool(v == ref)
        if op == "!=":
            return bool(v != ref)
        if op == "in":
            if self.members is not None:
                try:
                    return v in self.members
                except TypeError:
                    pass
            return v in ref
        if isinstance(v, (bool, str)):
            return False
        if op == "<":
            return bool(v < ref)
        if op == "<=":
            return bool(v <= ref)
        if op == ">":
            return bool(v > ref)
        return bool(v >= ref)

    def text(self) -> str:
        if self.op == "in":
            return "in [" + ", ".join(format_value(x) for x in self.value) + "]"
        return f"{self.op} {format_value(self.value)}"

    def __str__(self) -> str:
        return f"{self.fact} {self.text()}"


def format_value(v: Any) -> str:
    if v is None:
        return "unknown"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, str):
        return repr(v)
    return str(v)


def type_name(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if v is None:
        return "null"
    return type(v).__name__


def _got(v: Any) -> str:
    """``int 5``, ``str 'x'``: the value in a message, cut to a readable length."""
    if v is None:
        return "null"
    try:
        shown = repr(v)
    except ValueError:  # an integer past Python's 4,300-digit conversion limit
        shown = f"of about {int(abs(v).bit_length() * 0.30103) + 1} digits"
    return f"{type_name(v)} {shown if len(shown) <= 60 else shown[:57] + '...'}"


def check_value(ftype: str, v: Any) -> tuple[Any, str | None]:
    """Coerce ``v`` to the fact type. Returns (value, error message or None)."""
    if ftype == "bool":
        if isinstance(v, bool):
            return v, None
        return v, f"expected true or false, got {_got(v)}"
    if ftype == "int":
        if isinstance(v, int) and not isinstance(v, bool):
            return v, None
        if isinstance(v, float) and v.is_integer():
            return int(v), None
        return v, f"expected an integer, got {_got(v)}"
    if ftype == "float":
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            try:
                f = float(v)
            except OverflowError:  # an integer of more than 308 digits
                return v, f"expected a number, got {_got(v)}, too large for a float fact (at most about 1.8e308)"
            if math.isnan(f):
                return v, "expected a number, got NaN"
            return f, None
        return v, f"expected a number, got {_got(v)}"
    if ftype == "str":
        if isinstance(v, str):
            return v, None
        return v, f"expected a string, got {_got(v)}"
    return v, f"unknown fact type {ftype!r}"


def parse_condition(
    fact: str, ftype: str, raw: Any
) -> tuple[list[Condition], list[tuple[str, str]]]:
    """Parse the right-hand side of ``fact: raw``.

    Returns the conditions and a list of (key-path suffix, message) errors.
    """
    errors: list[tuple[str, str]] = []
    conds: list[Condition] = []
    if isinstance(raw, Mapping):
        if not raw:
            return [], [("", "empty condition; write a value or {op: value}")]
        items = list(raw.items())
    else:
        items = [("==", raw)]
    allowed = OPS_FOR_TYPE.get(ftype, OPS)
    for op, val in items:
        sub = "" if not isinstance(raw, Mapping) else f".{op}"
        if op not in OPS:
            errors.append(
                (sub, f"unknown operator {op!r}; use one of {', '.join(OPS)}")
            )
            continue
        if op not in allowed:
            errors.append(
                (sub, f"operator {op!r} does not fit a {ftype} fact; use one of {', '.join(allowed)}")
            )
            continue
        if op == "in":
            if not isinstance(val, (list, tuple)) or not val:
                errors.append((sub, "'in' needs a non-empty list of values"))
                continue
            vals = []
            for i, item in enumerate(val):
                cv, err = check_value(ftype, item)
                if err:
                    errors.append((f"{sub}[{i}]", err))
                vals.append(cv)
            conds.append(Condition(fact, "in", tuple(vals)))
            continue
        cv, err = check_value(ftype, val)
        if err:
            errors.append((sub, err))
            continue
        conds.append(Condition(fact, op, cv))
    return conds, errors
