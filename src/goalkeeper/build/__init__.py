"""The spec builder: a spec in, a SPEC document plus one runtime's deliverables out.

``build(spec, target)`` is pure: it returns ``{relative file name: text}`` and
the same spec always yields byte-identical text (stable order, no timestamps),
so the output can be committed and diffed. ``write_build`` is the thin I/O part.
Targets live in an explicit registry (``TARGETS``) like every extension point.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..model.lint import require_runnable
from ..model.spec import Spec
from ..planning import plan
from ..planning.result import PlanResult
from ..store.atomic import USER_FILE, write_text_atomic
from .document import render_document
from .prompts import response_schema, system_prompt, validator_contract
from .table import action_table, table_json

__all__ = [
    "TARGETS",
    "action_table",
    "build",
    "first_plan",
    "register_target",
    "runner_source",
    "write_build",
]

Files = dict[str, str]
TargetFn = Callable[[Spec], Files]
TARGETS: dict[str, TargetFn] = {}


def register_target(name: str) -> Callable[[TargetFn], TargetFn]:
    def deco(fn: TargetFn) -> TargetFn:
        TARGETS[name] = fn
        return fn

    return deco


_INLINE = re.compile(r"^# >>> inline (?P<module>[\w/]+\.py)\n.*?^# <<< inline\n", re.S | re.M)


def runner_source() -> str:
    """The standalone runner: the template with goalkeeper's stdlib-only tick loop copied in.

    The tick machine (``runtime/ledger.py``, ``instructions.py``, ``machine.py``) and the HTTP
    observer's deadline (``runtime/deadline_http.py``) are the runtime's own
    modules, so the runner cannot drift from ``goalkeeper run``; they are read as
    text (not imported) and their relative imports dropped.
    """
    template = resources.files(__package__).joinpath("runner_template.py").read_text(encoding="utf-8")
    return _INLINE.sub(lambda m: _module_text(m["module"]), template)


def _module_text(relpath: str) -> str:
    text = resources.files("goalkeeper").joinpath(relpath).read_text(encoding="utf-8")
    tree = ast.parse(text)
    drop: set[int] = set()
    for node in tree.body:
        if (isinstance(node, ast.ImportFrom) and (node.level or node.module == "__future__")) or (
                isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)) or (
                isinstance(node, ast.Expr) and node is tree.body[0] and isinstance(node.value, ast.Constant)):
            drop.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    kept = "".join(line for n, line in enumerate(text.splitlines(keepends=True), 1) if n not in drop)
    bar = "# " + "-" * 76
    return (f"{bar}\n# goalkeeper/{relpath}, copied by `goalkeeper build`: change it there, not here.\n"
            f"{bar}\n{kept.strip()}\n{bar}\n")


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@register_target("llm")
def _llm(spec: Spec) -> Files:
    return {"system_prompt.md": system_prompt(spec), "response.schema.json": _json(response_schema(spec))}


@register_target("code")
def _code(spec: Spec) -> Files:
    return {"actions.json": table_json(spec), "runner.py": runner_source()}


@register_target("hybrid")
def _hybrid(spec: Spec) -> Files:
    return {
        "proposer_prompt.md": system_prompt(spec, proposer=True),
        "response.schema.json": _json(response_schema(spec)),
        "validator_contract.md": validator_contract(spec),
        "actions.json": table_json(spec),
        "runner.py": runner_source(),
    }


def first_plan(spec: Spec, state: Mapping[str, Any] | None = None) -> PlanResult:
    """The plan the document shows: backward chaining from ``state``, by default from a fresh
    world: ``initial`` values, false for bool facts without one, unknown for the rest."""
    values = {f: d.initial if d.initial is not None or d.type != "bool" else False
              for f, d in spec.facts.items()}
    values.update(state or {})
    return plan(spec, values, search="regression")


def build(
    spec: Spec,
    target: str,
    *,
    source: str = "spec.yaml",
    state: Mapping[str, Any] | None = None,
) -> Files:
    """All files for ``target``; refuses a spec that cannot run (e.g. unobserved facts)."""
    fn = TARGETS.get(target)
    if fn is None:
        raise ConfigError(f"unknown build target {target!r}; choose one of: {', '.join(TARGETS)}")
    require_runnable(spec)
    start = "From the given state" if state else None
    doc = render_document(spec, first_plan(spec, state), target=target, source=source, start=start)
    return {"SPEC.md": doc, **fn(spec)}


def write_build(files: Mapping[str, str], out_dir: str | Path) -> list[Path]:
    """Write every file atomically, in name order; returns the paths written."""
    out = Path(out_dir)
    written = []
    for name in sorted(files):
        path = out / name
        write_text_atomic(path, files[name], mode=USER_FILE)
        if name.endswith(".py"):
            path.chmod(0o755)
        written.append(path)
    return written
