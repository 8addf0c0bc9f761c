"""The spec format: a goal over observable facts, one observer per fact, actions.

Pydantic checks the shape (unknown keys, types of plain fields); ``_resolve``
then checks meaning (unknown facts, value types, operators) and collects every
problem with its key path, so one run of ``validate`` shows them all.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from ..errors import SpecError, SpecIssue
from .conditions import Condition, check_value, format_value, parse_condition

__all__ = [
    "FORMAT_VERSION",
    "ActionDef",
    "FactDef",
    "Observer",
    "Policy",
    "Spec",
    "suggest",
]

FORMAT_VERSION = 1

_SCALAR_SCHEMA: dict[str, Any] = {"type": ["boolean", "integer", "number", "string"]}
_COND_SCHEMA: dict[str, Any] = {
    "anyOf": [
        _SCALAR_SCHEMA,
        {
            "type": "object",
            "propertyNames": {"enum": ["==", "!=", "<", "<=", ">", ">=", "in"]},
            "additionalProperties": {"anyOf": [_SCALAR_SCHEMA, {"type": "array", "items": _SCALAR_SCHEMA}]},
            "minProperties": 1,
        },
    ],
    "description": "a value (equality) or {operator: value}; operators == != < <= > >= in",
}
CondMap = Annotated[dict[str, Any], WithJsonSchema({"type": "object", "additionalProperties": _COND_SCHEMA})]
EffectMap = Annotated[
    dict[str, Any], WithJsonSchema({"type": "object", "additionalProperties": _SCALAR_SCHEMA})
]
Argv = str | list[str]

OBSERVER_KINDS = ("command", "file", "http", "python")
_NUL = ("contains a NUL byte (YAML reads \"\\0\" and JSON \"\\u0000\" as one), which no command, argument, "
        "path or variable can hold; remove it")


def _no_nul(value: Any) -> Any:
    """A command, path or environment value must be passable to the OS: refuse a NUL byte at load time
    (at run time it would fail as "cannot be started: not found", naming the wrong thing)."""
    texts = value if isinstance(value, list) else [*value, *value.values()] if isinstance(value, dict) else [value]
    if any(isinstance(t, str) and "\x00" in t for t in texts):
        raise ValueError(_NUL)
    return value
_PY_TARGET = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*")


def check_url(url: str) -> str | None:
    """Why ``url`` cannot be observed (scheme and host), or None. Parts built from
    ``${VAR}`` are only known at run time and are not judged here."""
    head = url.split("/", 3)
    if "${" in "/".join(head[:3]):
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as e:
        return f"not a usable URL ({e}); write it like http://127.0.0.1:8080/health"
    if parts.scheme not in ("http", "https"):
        what = f"scheme {parts.scheme!r}" if parts.scheme else "no scheme"
        return f"needs an http:// or https:// URL ({what}); write it like http://127.0.0.1:8080/health"
    if not host:
        return "the URL has no host; write it like http://127.0.0.1:8080/health"
    return None


def check_python_target(target: str) -> str | None:
    """Why ``target`` is not ``module:function`` (dotted module, one function name), or None."""
    if _PY_TARGET.fullmatch(target.strip()) and target == target.strip():
        return None
    hint = ""
    if ":" not in target and "." in target:
        mod, _, fn = target.rpartition(".")
        hint = f" (did you mean {mod}:{fn}?)"
    return f"needs 'module:function', e.g. checks.health:ok{hint}; got {target!r}"


class _Strict(BaseModel):
    # strict: `destructive: "no"` or `cost: "3"` is an error, as the JSON Schema says.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Observer(_Strict):
    """How one fact is observed. Exactly one of command/file/http/python.

    ``parse`` says how the raw result becomes the fact's value; the default
    depends on the fact type (bool: exit code 0 / file exists / HTTP 2xx;
    numbers: first number in stdout or body; str: stripped text).
    """

    command: Argv | None = Field(
        default=None, description="argv list, or a string run by the shell"
    )
    file: str | None = Field(default=None, description="path of a file to check or read")
    http: str | None = Field(default=None, description="URL to GET")
    python: str | None = Field(default=None, description="'module:function' returning the value")
    parse: Literal["exit_code", "exists", "status", "number", "json", "regex", "text"] | None = None
    path: str | None = Field(default=None, description="JSON path for parse: json, e.g. data.items[0].ok")
    pattern: str | None = Field(default=None, description="regex for parse: regex (group 1 if any)")
    expect_status: int | None = Field(default=None, description="HTTP status that means true")
    timeout: float | None = Field(default=None, gt=0)
    cwd: str | None = None
    env: dict[str, str] | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_kind(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            kinds = [k for k in OBSERVER_KINDS if data.get(k) is not None]
            if len(kinds) > 1:
                raise ValueError(
                    f"a fact has ONE observer, this one has {len(kinds)} ({', '.join(kinds)}); "
                    "keep one and model the other as its own fact"
                )
            if not kinds and all(k in cls.model_fields for k in data):
                # (with an unknown key, e.g. `comand`, the unknown-key error says more)
                raise ValueError("observer needs one of: command, file, http, python")
        return data

    _nul = field_validator("command", "file", "cwd", "env")(_no_nul)

    @field_validator("http")
    @classmethod
    def _http_url(cls, v: str | None) -> str | None:
        problem = check_url(v) if v is not None else None
        if problem:
            raise ValueError(problem)
        return v

    @field_validator("python")
    @classmethod
    def _python_target(cls, v: str | None) -> str | None:
        problem = check_python_target(v) if v is not None else None
        if problem:
            raise ValueError(problem)
        return v

    @model_validator(mode="after")
    def _parse_options(self) -> Observer:
        if self.parse == "regex" and not self.pattern:
            raise ValueError("parse: regex needs a pattern, e.g. pattern: 'passed: (\\d+)'")
        if self.parse == "json" and self.pattern:
            raise ValueError("pattern only applies to parse: regex; for JSON use path")
        return self

    @property
    def kind(self) -> str:
        for k in OBSERVER_KINDS:
            if getattr(self, k) is not None:
                return k
        raise AssertionError("validated observer has a kind")

    def describe(self) -> str:
        if self.command is not None:
            c = self.command if isinstance(self.command, str) else " ".join(self.command)
            text = f"command `{c}`"
        elif self.file is not None:
            text = f"file `{self.file}`"
        elif self.http is not None:
            text = f"http GET {self.http}"
        else:
            text = f"python {self.python}"
        if self.parse:
            text += f" (parse: {self.parse}"
            if self.path:
                text += f", path {self.path}"
            if self.pattern:
                text += f", pattern {self.pattern}"
            text += ")"
        return text


class FactDef(_Strict):
    type: Literal["bool", "int", "float", "str"] = "bool"
    observe: Observer | None = None
    initial: Annotated[Any, WithJsonSchema(_SCALAR_SCHEMA)] = None
    diagnostic: bool = Field(
        default=False, description="observed only when replanning (after the strike limit)"
    )
    description: str | None = None
    assumption: bool = Field(default=False, description="derived, not confirmed by the author")

    @model_validator(mode="before")
    @classmethod
    def _observe_list(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and isinstance(data.get("observe"), list):
            obs = data["observe"]
            if len(obs) != 1:
                raise ValueError(
                    f"a fact has ONE observer, this one lists {len(obs)}; keep one and model "
                    "the others as facts of their own"
                )
            data = {**data, "observe": obs[0]}
        return data


class ActionDef(_Strict):
    pre: CondMap = Field(default_factory=dict)
    effects: EffectMap = Field(default_factory=dict)
    cost: float = Field(default=1.0, gt=0)
    run: Argv | None = Field(default=None, description="argv list, or a string run by the shell")
    destructive: bool = False
    confirm: bool = Field(default=False, description="destructive action also needs approval")
    timeout: float | None = Field(default=None, gt=0)
    cwd: str | None = None
    env: dict[str, str] | None = None
    description: str | None = None
    assumption: bool = False

    _nul = field_validator("run", "cwd", "env")(_no_nul)

    _pre: tuple[Condition, ...] = PrivateAttr(default=())
    _eff: tuple[tuple[str, Any], ...] = PrivateAttr(default=())

    @property
    def pre_conditions(self) -> tuple[Condition, ...]:
        return self._pre

    @property
    def effect_values(self) -> tuple[tuple[str, Any], ...]:
        """Effects with values coerced to the fact type (e.g. 2000 -> 2000.0 for float)."""
        return self._eff


class Policy(_Strict):
    max_ticks: int | None = Field(default=25, ge=1, description="hard tick cap; null = unbounded")
    strikes: int = Field(default=3, ge=1, description="consecutive failures before a replan")
    observe_timeout: float = Field(default=10.0, gt=0, description="seconds per observer")
    action_timeout: float = Field(default=600.0, gt=0, description="seconds per action")


class Spec(_Strict):
    goalkeeper: Literal[1] = Field(description="format version")
    name: str | None = None
    description: str | None = None
    goal: CondMap
    facts: dict[str, FactDef]
    actions: dict[str, ActionDef] = Field(default_factory=dict)
    policy: Policy = Field(default_factory=Policy)

    _goal: tuple[Condition, ...] = PrivateAttr(default=())
    _cache: dict[Any, Any] = PrivateAttr(default_factory=dict)

    @field_validator("goalkeeper", mode="before")
    @classmethod
    def _version(cls, v: Any) -> Any:
        if isinstance(v, bool):
            raise ValueError("unsupported format version; this goalkeeper reads `goalkeeper: 1`")
        return v

    @field_validator("goal", mode="before")
    @classmethod
    def _prose_goal(cls, v: Any) -> Any:
        if isinstance(v, str):
            raise ValueError(
                "the goal is prose; a goal must map facts to observable conditions, "
                "e.g. goal: {health_ok: true, lcp_ms: {'<': 2500}}"
            )
        return v

    @model_validator(mode="after")
    def _resolve(self) -> Spec:
        issues = _resolve(self)
        if issues:
            raise SpecError(issues)
        return self

    @property
    def goal_conditions(self) -> tuple[Condition, ...]:
        return self._goal

    def fact_type(self, fact: str) -> str:
        return self.facts[fact].type

    def defaults(self) -> dict[str, Any]:
        """Facts with an ``initial`` value."""
        return {k: f.initial for k, f in self.facts.items() if f.initial is not None}


def suggest(name: str, known: list[str] | Any) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


_SUGGESTIONS = 20  # "did you mean" costs O(facts) each; past this many unknown names, skip it


def _resolve(spec: Spec) -> list[SpecIssue]:
    issues: list[SpecIssue] = []
    facts = spec.facts
    budget = [_SUGGESTIONS]

    def err(path: str, msg: str, code: str = "invalid") -> None:
        issues.append(SpecIssue(path=path, message=msg, code=code))

    def unknown(name: str) -> str:
        budget[0] -= 1
        return "unknown fact" + (suggest(name, facts) if budget[0] >= 0 else "")

    def conds(base: str, raw: Mapping[str, Any]) -> tuple[Condition, ...]:
        out: list[Condition] = []
        for fact, rhs in raw.items():
            if fact not in facts:
                err(f"{base}.{fact}", unknown(fact), "unknown-fact")
                continue
            parsed, errors = parse_condition(fact, facts[fact].type, rhs)
            for sub, msg in errors:
                err(f"{base}.{fact}{sub}", msg, "bad-condition")
            out.extend(parsed)
        return tuple(out)

    for fname, fdef in facts.items():
        if fdef.initial is not None:
            _, e = check_value(fdef.type, fdef.initial)
            if e:
                err(f"facts.{fname}.initial", e, "bad-value")
    if not spec.goal:
        err("goal", "the goal is empty; name at least one fact and the value it must reach")
    spec._goal = conds("goal", spec.goal)
    for aname, adef in spec.actions.items():
        adef._pre = conds(f"actions.{aname}.pre", adef.pre)
        effs: list[tuple[str, Any]] = []
        for fact, val in adef.effects.items():
            path = f"actions.{aname}.effects.{fact}"
            if fact not in facts:
                err(path, unknown(fact), "unknown-fact")
                continue
            if isinstance(val, Mapping):
                err(path, f"an effect assigns a value (e.g. {fact}: true), not a condition")
                continue
            cv, e = check_value(facts[fact].type, val)
            if e:
                err(path, e, "bad-value")
                continue
            effs.append((fact, cv))
        adef._eff = tuple(effs)
        if adef.confirm and not adef.destructive:
            err(f"actions.{aname}.confirm", "confirm only applies to destructive actions; add destructive: true")
    return issues


def describe_effects(action: ActionDef) -> str:
    return ", ".join(f"{f} = {format_value(v)}" for f, v in action.effect_values) or "-"
