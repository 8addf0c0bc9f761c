"""Load STRIPS PDDL problems (via pyperplan's grounder) as compiled tasks.

Used by benchmarks and tests to measure the planner on IPC domains. pyperplan is a
dev-only dependency, imported lazily. Facts and operators are sorted by name so the
compiled task (and hence every plan) does not depend on string hash randomisation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import MissingExtraError
from .task import GroundAction, Task

__all__ = ["load_pddl"]

_TRUE = frozenset({1})


def _ground(domain_path: str | Path, problem_path: str | Path) -> Any:
    try:
        from pyperplan.grounding import ground  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from pyperplan.pddl.parser import Parser  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingExtraError("pyperplan", "bench") from None
    parser = Parser(str(domain_path), str(problem_path))
    domain = parser.parse_domain()
    problem = parser.parse_problem(domain)
    return ground(problem)


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
