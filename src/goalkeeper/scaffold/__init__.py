"""Scaffold a spec from the four inputs: goal, world facts, actions, target runtime.

Pure functions: answers in (from a JSON file, flags or prompts), spec text out.
Whatever the author did not say but the spec needs (a fact's type, an observer)
is derived and marked ``assumption: true``, so a reviewer sees what to confirm.
The target runtime has no key in the spec format; it is a ``# target:`` comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..errors import ConfigError
from ..model.loader import parse_spec_text
from ..model.spec import Spec

__all__ = [
    "TARGETS",
    "Answers",
    "answers_from_data",
    "assume_initial",
    "derive",
    "parse_action",
    "parse_assignments",
    "parse_condition",
    "parse_conditions",
    "parse_fact",
    "parse_observer",
    "referenced_facts",
    "render_spec",
    "undescribed_facts",
]

TARGETS = ("llm", "code", "hybrid")
_COND = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*(==|!=|<=|>=|=|<|>|\s+in\s+)\s*(.*?)\s*$")
_ACTION = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*(?:\((.*?)\))?\s*:\s*(.*?)\s*->\s*(.*?)\s*(?:\|\s*(.*))?$")


@dataclass
class Answers:
    """What the author told us, in spec shapes (conditions as ``{op: value}`` or a value)."""

    name: str | None = None
    description: str | None = None
    goal: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    actions: dict[str, dict[str, Any]] = field(default_factory=dict)
    target: str | None = None
    max_ticks: int | None = 25
    notes: list[str] = field(default_factory=list)


def _value(text: str) -> Any:
    """YAML scalar semantics: true/false, numbers, else the text itself."""
    try:
        v = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return v if isinstance(v, (bool, int, float, str, list)) else text


def parse_condition(text: str) -> tuple[str, Any]:
    """``lcp_ms<2500`` -> ``("lcp_ms", {"<": 2500})``; ``ok=true`` -> ``("ok", True)``."""
    m = _COND.match(text)
    if not m or not m.group(3):
        raise ConfigError(f"cannot read condition {text!r}; write fact=value or fact<number, "
                          "e.g. health_ok=true or lcp_ms<2500")
    fact, op, raw = m.group(1), m.group(2).strip(), m.group(3)
    if op == "in":
        items = _value(raw)
        values = items if isinstance(items, list) else [_value(x.strip()) for x in raw.split(",")]
        return fact, {"in": values}
    value = _value(raw)
    return fact, value if op in ("=", "==") else {op: value}


def parse_conditions(text: str | dict[str, Any] | None) -> dict[str, Any]:
    if text is None:
        return {}
    if isinstance(text, dict):
        return dict(text)
    return dict(parse_condition(part) for part in re.split(r"[,;]\s*(?![^\[]*\])", text) if part.strip())


def parse_assignments(text: str | dict[str, Any] | None) -> dict[str, Any]:
    out = {}
    for fact, rhs in parse_conditions(text).items():
        if isinstance(rhs, dict):
            raise ConfigError(f"effect {fact}: an effect assigns a value (e.g. {fact}=true), not a condition")
        out[fact] = rhs
    return out


def parse_observer(text: str | dict[str, Any]) -> dict[str, Any]:
    """``file:PATH``, ``http(s)://URL`` or a shell command; a mapping is used as given."""
    if isinstance(text, dict):
        return dict(text)
    if text.startswith(("http://", "https://")):
        return {"http": text}
    if text.startswith("file:"):
        return {"file": text[5:]}
    if text.startswith("python:"):
        return {"python": text[7:]}
    return {"command": text}


def parse_fact(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME[:TYPE][=OBSERVER]``, e.g. ``health_ok:bool=curl -fsS localhost/health``."""
    head, sep, obs = text.partition("=")
    name, _, ftype = head.strip().partition(":")
    entry: dict[str, Any] = {}
    if ftype.strip():
        entry["type"] = ftype.strip()
    if sep and obs.strip():
        entry["observe"] = parse_observer(obs.strip())
    return name.strip(), entry


def parse_action(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME[(cost=2,destructive,confirm)]: PRE -> EFFECTS [| RUN]``."""
    m = _ACTION.match(text)
    if not m:
        raise ConfigError(f"cannot read action {text!r}; write NAME: PRE -> EFFECTS | RUN, "
                          "e.g. 'deploy: built=true -> deployed=true | ./deploy.sh'")
    name, opts, pre, eff, run = m.groups()
    entry: dict[str, Any] = {"pre": parse_conditions(pre), "effects": parse_assignments(eff)}
    if run and run.strip():
        entry["run"] = run.strip()
    for opt in filter(None, (o.strip() for o in (opts or "").split(","))):
        key, _, val = opt.partition("=")
        if key == "cost":
            entry["cost"] = _value(val)
        elif key in ("destructive", "confirm"):
            entry[key] = True
        else:
            raise ConfigError(f"action {name}: unknown option {key!r}; use cost=N, destructive, confirm")
    return name, entry


def answers_from_data(data: Any) -> Answers:
    """Lenient answers file: conditions and effects may be text, observers may be a string."""
    if not isinstance(data, dict):
        raise ConfigError("an answers file is a JSON object with keys name, goal, facts, actions, target")
    known = {"name", "description", "goal", "facts", "actions", "target", "max_ticks"}
    extra = sorted(set(data) - known)
    if extra:
        raise ConfigError(f"answers: unknown key(s) {', '.join(extra)}; allowed: {', '.join(sorted(known))}")
    a = Answers(name=data.get("name"), description=data.get("description"),
                target=data.get("target"), max_ticks=data.get("max_ticks", 25))
    goal = data.get("goal") or {}
    if isinstance(goal, list) and not all(isinstance(g, str) for g in goal):
        raise ConfigError("answers: goal: a list of conditions must hold strings like 'health_ok=true'")
    if not isinstance(goal, list | dict):
        raise ConfigError("answers: goal: give an object {fact: value} or a list like ['health_ok=true']")
    for key in ("facts", "actions"):
        section = data.get(key) or {}
        if not isinstance(section, dict):
            raise ConfigError(f"answers: {key}: must be an object mapping names to their description")
        for name, v in section.items():
            if not isinstance(v, dict | str) or (key == "actions" and not isinstance(v, dict)):
                raise ConfigError(f"answers: {key}.{name}: must be an object"
                                  + (" (or an observer string)" if key == "facts" else ""))
    a.goal = dict(parse_condition(g) for g in goal) if isinstance(goal, list) else parse_conditions(goal)
    for name, f in (data.get("facts") or {}).items():
        entry = dict(f) if isinstance(f, dict) else {"observe": f}
        if isinstance(entry.get("observe"), str):
            entry["observe"] = parse_observer(entry["observe"])
        a.facts[name] = entry
    for name, act in (data.get("actions") or {}).items():
        entry = dict(act)
        entry["pre"] = parse_conditions(entry.get("pre"))
        entry["effects"] = parse_assignments(entry.get("effects"))
        a.actions[name] = entry
    return a


def referenced_facts(a: Answers) -> list[str]:
    """Facts named by the goal, preconditions or effects, in first-mention order."""
    out = list(a.goal)
    for act in a.actions.values():
        out += list(act.get("pre") or {}) + list(act.get("effects") or {})
    return list(dict.fromkeys(out))


def undescribed_facts(a: Answers) -> list[str]:
    return [f for f in referenced_facts(a) if "observe" not in a.facts.get(f, {})]


def _values_of(a: Answers, fact: str) -> list[Any]:
    rhs = [a.goal.get(fact)] + [act.get("pre", {}).get(fact) for act in a.actions.values()]
    vals: list[Any] = [act.get("effects", {}).get(fact) for act in a.actions.values()]
    for r in rhs:
        if isinstance(r, dict):
            for v in r.values():
                vals += v if isinstance(v, list) else [v]
        else:
            vals.append(r)
    return [v for v in vals if v is not None]


def guess_type(a: Answers, fact: str) -> str:
    vals = _values_of(a, fact)
    if any(isinstance(v, str) for v in vals):
        return "str"
    if any(isinstance(v, float) for v in vals):
        return "float"
    if any(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "int"
    return "bool"


def guess_observer(fact: str, ftype: str) -> dict[str, Any]:
    """A marker file: honest (missing file = false/unknown) and easy to replace."""
    if ftype == "bool":
        return {"file": f"state/{fact}"}
    return {"file": f"state/{fact}", "parse": "number" if ftype in ("int", "float") else "text"}


_INITIAL: dict[str, Any] = {"bool": False, "int": 0, "float": 0.0, "str": ""}


def assume_initial(a: Answers) -> None:
    """Facts still without an initial value start false/0/empty, said in the notes.

    What `goalkeeper plan` assumes before anything is observed (`run` observes instead): the state
    before any action ran. Without it a fresh spec cannot be planned at all."""
    guessed: list[str] = []
    for fact, entry in a.facts.items():
        if "initial" not in entry and not entry.get("diagnostic"):
            entry["initial"] = _INITIAL.get(str(entry.get("type", "bool")), False)
            guessed.append(fact)
    if guessed:
        a.notes.append(f"initial: {', '.join(guessed)} start false/0/empty for `goalkeeper plan` (assumed; "
                       "`goalkeeper run` observes them instead)")


def derive(a: Answers, *, initial: bool = True) -> Answers:
    """Fill what is missing with guesses marked ``assumption: true``; the goal cannot be guessed.

    ``initial=False`` leaves initial values to the caller (``goalkeeper new`` asks for them,
    or infers them from the actions, then calls :func:`assume_initial` for what is left)."""
    if not a.goal:
        raise ConfigError("no goal: give at least one observable goal fact, e.g. --goal health_ok=true")
    for fact in referenced_facts(a):
        entry = a.facts.setdefault(fact, {})
        if "type" not in entry:
            entry["type"] = guess_type(a, fact)
            entry["assumption"] = True
        if "observe" not in entry:
            entry["observe"] = guess_observer(fact, entry["type"])
            entry["assumption"] = True
            entry.setdefault("description", f"assumed observer: replace with how {fact} is really observed")
    if initial:
        assume_initial(a)
    if a.target is None:
        a.target = "code"
        a.notes.append("target: code (assumed; pass --target llm|code|hybrid)")
    if a.target not in TARGETS:
        raise ConfigError(f"unknown target {a.target!r}; choose one of: {', '.join(TARGETS)}")
    return a


def render_spec(a: Answers) -> tuple[str, Spec]:
    """Spec YAML (with a ``# target:`` header) and the validated spec it parses to."""
    data: dict[str, Any] = {"goalkeeper": 1}
    if a.name:
        data["name"] = a.name
    if a.description:
        data["description"] = a.description
    data["goal"] = a.goal
    data["facts"] = {f: _ordered(e, ("type", "observe", "initial", "diagnostic", "description", "assumption"))
                     for f, e in a.facts.items()}
    data["actions"] = {n: _ordered(e, ("pre", "effects", "cost", "run", "destructive", "confirm",
                                        "timeout", "description", "assumption"))
                       for n, e in a.actions.items()}
    data["policy"] = {"max_ticks": a.max_ticks}
    lines = [f"# target: {a.target}", f"# next: goalkeeper build <this file> --target {a.target}"]
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100, allow_unicode=True)
    text = "\n".join(lines) + "\n" + body
    return text, parse_spec_text(text, source=a.name or "new spec")


_FLAGS = frozenset({"diagnostic", "destructive", "confirm", "assumption"})


def _empty(key: str, v: Any) -> bool:
    """Leave out what adds nothing; `initial: false` and `cost: 0` are values, not absence."""
    if v is None or (isinstance(v, dict) and not v):
        return True
    return key in _FLAGS and v is False


def _ordered(entry: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    out = {k: entry[k] for k in order if k in entry and not _empty(k, entry[k])}
    out.update({k: v for k, v in entry.items() if k not in order})
    return out
