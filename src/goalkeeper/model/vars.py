"""``${VAR}`` references in a spec, and which of them the environment leaves unset.

The runtime expands ``${VAR}`` in argv items, observer ``file`` paths, ``http``
URLs and observer ``env`` values, and a shell expands it in string commands;
an unset variable silently stays as written (or becomes empty in a shell), so
``mkdir ${OUT}`` fails far from its cause. ``validate`` reports these as
warnings with their key path; :func:`require_variables` lets a runtime refuse
to start instead. Pure: the environment is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from ..errors import SpecError, SpecIssue
from .spec import Spec

__all__ = ["RUNTIME_VARS", "require_variables", "unset_variables", "variable_references"]

VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Set by the runtime for every observer and action (see runtime/driver.py).
RUNTIME_VARS = frozenset({"GOALKEEPER_RUN_ID", "GOALKEEPER_SPEC_DIR", "GOALKEEPER_TICK"})


def _argv(base: str, cmd: str | list[str] | None) -> Iterator[tuple[str, str]]:
    if isinstance(cmd, str):
        yield base, cmd
    elif cmd is not None:
        for i, item in enumerate(cmd):
            yield f"{base}[{i}]", item


def variable_references(spec: Spec) -> Iterator[tuple[str, str, frozenset[str]]]:
    """(key path, variable, names its own ``env:`` provides) for every ``${VAR}`` the runtime expands."""
    for name, fact in spec.facts.items():
        obs = fact.observe
        if obs is None:
            continue
        base = f"facts.{name}.observe"
        local = frozenset(obs.env or ())
        texts = [*_argv(f"{base}.command", obs.command)]
        for path, text in texts:
            for m in VAR.finditer(text):
                yield path, m.group(1), local
        plain = [(f"{base}.file", obs.file), (f"{base}.http", obs.http)]
        plain += [(f"{base}.env.{k}", v) for k, v in (obs.env or {}).items()]
        for path, value in plain:
            for m in VAR.finditer(value or ""):
                yield path, m.group(1), frozenset()  # expanded from the run's environment only
    for name, action in spec.actions.items():
        local = frozenset(action.env or ())
        for path, text in _argv(f"actions.{name}.run", action.run):
            for m in VAR.finditer(text):
                yield path, m.group(1), local


def unset_variables(spec: Spec, env: Mapping[str, str], *, severity: str = "warning") -> list[SpecIssue]:
    """One issue (code ``unset-var``) per reference to a variable ``env`` does not set."""
    out = []
    for path, var, local in variable_references(spec):
        if var in env or var in local or var in RUNTIME_VARS:
            continue
        out.append(SpecIssue(
            path,
            f"${{{var}}} is not set in the environment, so it would stay as the text '${{{var}}}' "
            f"(or be empty in a shell command); export {var} before running, or set it under `env:`",
            severity=severity,
            code="unset-var",
        ))
    return out


def require_variables(spec: Spec, env: Mapping[str, str]) -> None:
    """Refuse a spec that names unset variables: ``SpecError`` listing every reference."""
    from .loader import attach_lines

    issues = unset_variables(spec, env, severity="error")
    if issues:
        raise SpecError(attach_lines(spec, issues), spec._cache.get("source"))
