"""A state: every fact with a value. Checked against the spec before use."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import StateError
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
    for key, val in values.items():
        if key not in spec.facts:
            problems.append(f"{source}: {key}: unknown fact{suggest(key, spec.facts)}")
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
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StateError(f"{path}: file not found") from None
    except json.JSONDecodeError as e:
        raise StateError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from None
    except OSError as e:
        raise StateError(f"{path}: cannot read: {e}") from None
    if not isinstance(data, dict):
        raise StateError(f"{path}: a state is a JSON object mapping fact names to values")
    return complete_state(spec, data, source=str(path))
