"""A state: every fact with a value. Checked against the spec before use."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import StateError
from ..store.decode import decode_json
from ..store.safe import MAX_STATE_BYTES, read_bounded
from .conditions import check_value
from .spec import Spec, suggest

__all__ = ["complete_state", "load_state"]


def complete_state(
    spec: Spec, values: Mapping[str, Any], *, source: str = "state", allow_unknown: bool = False
) -> dict[str, Any]:
    """Check ``values`` against the spec and fill facts that have an ``initial`` value.

    ``None`` means "unknown" and is only accepted with ``allow_unknown`` (the runtime
    uses it for observers that failed).
    """
    problems: list[str] = []
    out: dict[str, Any] = {}
    hints = 20  # "did you mean" is O(facts) per name; not for thousands of unknown keys
    for key, val in values.items():
        if key not in spec.facts:
            hints -= 1
            problems.append(f"{source}: {key}: unknown fact{suggest(key, spec.facts) if hints >= 0 else ''}")
            continue
        if val is None and allow_unknown:
            out[key] = None
            continue
        cv, err = check_value(spec.facts[key].type, val)
        if err:
            problems.append(f"{source}: {key}: {err}")
        out[key] = cv
    for name, fdef in spec.facts.items():
        if name in out:
            continue
        if fdef.initial is not None:
            out[name] = check_value(fdef.type, fdef.initial)[0]
        else:
            problems.append(
                f"{source}: {name}: missing; give it a value here or an `initial` value in the spec"
            )
    if problems:
        raise StateError("\n".join(problems))
    return out


def load_state(spec: Spec, path: str | Path) -> dict[str, Any]:
    """A state file (JSON object of fact values): a bounded regular file, checked like a spec."""
    p = Path(path)
    try:
        raw = read_bounded(p, limit=MAX_STATE_BYTES, follow_symlinks=True,
                           refuse=lambda problem: StateError(f"{path}: cannot read: it {problem}"))
    except FileNotFoundError:
        raise StateError(f"{path}: file not found") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise StateError(f"{path}: not UTF-8 text (byte {e.start})") from None
    data, problem = decode_json(text, finite=True)
    if problem is not None:
        line = f":{problem.line}" if problem.line else ""
        where = f"{problem.path}: " if problem.path else ""
        msg = problem.message.replace("not valid JSON (", "invalid JSON: ").rstrip(")") \
            if problem.message.startswith("not valid JSON") else problem.message
        raise StateError(f"{path}{line}: {where}{msg}") from None
    if not isinstance(data, dict):
        raise StateError(f"{path}: a state is a JSON object mapping fact names to values")
    return complete_state(spec, data, source=str(path))
