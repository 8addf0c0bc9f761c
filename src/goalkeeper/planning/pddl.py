"""Load STRIPS PDDL problems (via pyperplan's grounder) as compiled tasks.

Used by benchmarks and tests to measure the planner on IPC domains. pyperplan is a
dev-only dependency, imported lazily. Facts and operators are sorted by name so the
compiled task (and hence every plan) does not depend on string hash randomisation.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import ConfigError, MissingExtraError
from .task import GroundAction, Task

__all__ = ["load_pddl"]

_TRUE = frozenset({1})
# What the grounder reads: STRIPS with typing (``either`` and constants included).
_SUPPORTED = frozenset({":strips", ":typing"})
_REQUIREMENTS = re.compile(r"\(\s*:requirements\b([^)]*)\)", re.I)
_CONSTRUCTS = tuple((re.compile(rx), what) for rx, what in (
    (r"\(\s*:functions\b", ":action-costs or numeric fluents"), (r"\(\s*when\b", "conditional effects"),
    (r"\(\s*forall\b", "universal quantifiers"), (r"\(\s*exists\b", "existential quantifiers"),
    (r"\(\s*or\b", "disjunctive preconditions"), (r"\(\s*imply\b", "implications"),
    (r"\(\s*:derived\b", "derived predicates"), (r"\(\s*=\s", "equality"),
))


def _unsupported(domain_path: str | Path) -> str | None:
    """The first construct of the domain the STRIPS grounder cannot read, named for the user."""
    try:
        text = Path(domain_path).read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return None
    text = re.sub(r";[^\n]*", "", text)  # comments
    m = _REQUIREMENTS.search(text)
    extra = sorted(set(m.group(1).split()) - _SUPPORTED) if m else []
    if extra:
        return f"requirements {' '.join(extra)}"
    return next((what for rx, what in _CONSTRUCTS if rx.search(text)), None)


def _ground(domain_path: str | Path, problem_path: str | Path) -> Any:
    try:
        from pyperplan.grounding import ground  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from pyperplan.pddl.parser import Parser  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingExtraError("pyperplan", "bench") from None
    try:
        parser = Parser(str(domain_path), str(problem_path))
        domain = parser.parse_domain()
        problem = parser.parse_problem(domain)
        return ground(problem)
    except (OSError, MemoryError):
        raise
    except Exception as e:  # pyperplan's own parse and semantic errors name neither file nor fix
        what = _unsupported(domain_path)
        why = f"it uses {what}, which" if what else "it"
        raise ConfigError(
            f"{domain_path} / {problem_path}: cannot load this PDDL task: {why} goalkeeper's PDDL loader does "
            f"not read (STRIPS with :typing only; the grounder said: {type(e).__name__}: {e}). Compile the "
            "construct away first (e.g. Fast Downward's translator), or write the task as a goalkeeper spec"
        ) from None


def load_pddl(domain_path: str | Path, problem_path: str | Path) -> tuple[Task, int]:
    """Ground a STRIPS problem; one binary variable per fact (values False, True).

    Preconditions and goals require True; add effects set True, delete effects False.
    A fact both added and deleted by one operator ends up True (STRIPS semantics).
    """
    st = _ground(domain_path, problem_path)
    facts = sorted(st.facts)
    index = {f: i for i, f in enumerate(facts)}
    actions: list[GroundAction] = []
    for op in sorted(st.operators, key=lambda o: o.name):
        pre = tuple(sorted((index[f], _TRUE) for f in op.preconditions))
        eff: dict[int, int] = {index[f]: 0 for f in op.del_effects}
        for f in op.add_effects:
            eff[index[f]] = 1
        actions.append(GroundAction(op.name, pre, tuple(sorted(eff.items())), 1.0))
    goal = [(index[f], _TRUE) for f in sorted(st.goals)]
    domains = [(False, True)] * len(facts)
    task = Task.compile(facts, domains, actions, goal)
    init = task.encode([1 if f in st.initial_state else 0 for f in facts])
    return task, init
