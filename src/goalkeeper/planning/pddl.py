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
from ..store.safe import read_bounded
from .task import GroundAction, Task

__all__ = ["MAX_PDDL_BYTES", "MAX_PDDL_DEPTH", "load_pddl"]

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


MAX_PDDL_BYTES = 16 << 20  # the largest IPC STRIPS tasks are a few MiB
MAX_PDDL_DEPTH = 100  # STRIPS formulas nest a few levels; the parser recurses once per level
# Parameter assignments pyperplan's grounder enumerates for one action (it keeps one list slot per
# assignment). The largest benchmark task (freecell task19) needs 3.6e8; a hostile task asks for 1e26.
MAX_GROUNDINGS = 1_000_000_000


def _unsupported(text: str) -> str | None:
    """The first construct of the domain the STRIPS grounder cannot read, named for the user."""
    text = re.sub(r";[^\n]*", "", text.lower())  # comments
    m = _REQUIREMENTS.search(text)
    extra = sorted(set(m.group(1).split()) - _SUPPORTED) if m else []
    if extra:
        return f"requirements {' '.join(extra)}"
    return next((what for rx, what in _CONSTRUCTS if rx.search(text)), None)


def _read(path: str | Path, what: str) -> str:
    """The text of a PDDL file: a regular UTF-8 file of bounded size and nesting, or a ConfigError naming it."""
    def refuse(problem: str) -> ConfigError:
        return ConfigError(f"{path}: cannot read this PDDL {what} file: it {problem}")

    try:
        raw = read_bounded(path, limit=MAX_PDDL_BYTES, follow_symlinks=True, refuse=refuse)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such PDDL {what} file; check the path") from None
    except ValueError as e:  # a NUL byte in the path
        raise ConfigError(f"{path!r}: not a usable path ({e})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        at = raw[: e.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{at}: not UTF-8 text (byte {e.start}); save the PDDL {what} as UTF-8") from None
    depth = 0
    for n, line in enumerate(text.split("\n"), 1):
        for c in line.partition(";")[0]:
            if c == "(":
                depth += 1
                if depth > MAX_PDDL_DEPTH:
                    raise ConfigError(f"{path}:{n}: parentheses nest deeper than {MAX_PDDL_DEPTH} levels; "
                                      "no STRIPS task needs that — the file is damaged or not PDDL")
            elif c == ")":
                depth -= 1
    return text


def _ground(domain_path: str | Path, problem_path: str | Path) -> Any:
    try:
        from pyperplan.grounding import ground  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from pyperplan.pddl.parser import Parser  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingExtraError("pyperplan", "bench") from None
    domain_text = _read(domain_path, "domain")
    problem_text = _read(problem_path, "problem")
    try:
        parser = Parser(str(domain_path), str(problem_path))
        parser.domInput, parser.probInput = domain_text, problem_text  # parsed from the bounded text, not reopened
        domain = parser.parse_domain(read_from_file=False)
        problem = parser.parse_problem(domain, read_from_file=False)
    except Exception as e:
        raise _unreadable(domain_path, problem_path, domain_text, e) from None
    _check_groundable(problem, domain_path, problem_path)
    try:
        return ground(problem)
    except MemoryError:
        raise
    except Exception as e:
        raise _unreadable(domain_path, problem_path, domain_text, e) from None


def _unreadable(domain_path: str | Path, problem_path: str | Path, domain_text: str, e: Exception) -> ConfigError:
    """pyperplan's own parse and semantic errors name neither file nor fix; this does."""
    what = _unsupported(domain_text)
    why = f"it uses {what}, which goalkeeper's PDDL loader does not read" if what else (
        "goalkeeper's PDDL loader cannot read it")
    return ConfigError(
        f"{domain_path} / {problem_path}: cannot load this PDDL task: {why} (STRIPS with :typing only; "
        f"the grounder said: {type(e).__name__}: {str(e)[:500]}). Fix the file, compile the construct away "
        "first (e.g. Fast Downward's translator), or write the task as a goalkeeper spec")


def _ancestors(t: Any, where: str) -> list[Any]:
    """``t`` and its supertypes; a cycle (``a - b  b - a``) would send pyperplan's grounder round forever."""
    out: list[Any] = []
    seen: set[int] = set()
    while t is not None:
        if id(t) in seen:
            names = " - ".join(str(x) for x in out)
            raise ConfigError(f"{where}: the types form a cycle ({names} - {t}); a type cannot be its own "
                              "supertype — fix the (:types ...) section")
        seen.add(id(t))
        out.append(t)
        t = getattr(t, "parent", None)
    return out


def _check_groundable(problem: Any, domain_path: str | Path, problem_path: str | Path) -> None:
    """Refuse, before grounding, a type cycle or a task with more assignments than the grounder can try.

    The count is the grounder's own: per parameter, the objects of its types that
    pass the static preconditions (predicates no action changes) of the initial
    state, as pyperplan prunes them; then their product per action.
    """
    where = f"{domain_path} / {problem_path}"
    for t in problem.domain.types.values():
        _ancestors(t, where)
    by_type: dict[int, set[str]] = {}
    for obj, typ in {**problem.domain.constants, **problem.objects}.items():
        for t in _ancestors(typ, where):
            by_type.setdefault(id(t), set()).add(obj)
    actions = list(problem.domain.actions.values())
    changed = {e.name for a in actions for e in (*a.effect.addlist, *a.effect.dellist)}
    init = {(f.name, i, arg[0]) for f in problem.initial_state for i, arg in enumerate(f.signature)}
    for action in actions:
        n = 1
        for name, types in action.signature:
            objs = set().union(*(by_type.get(id(t), set()) for t in types))
            for pre in action.precondition:
                if pre.name in changed:
                    continue
                at = [i for i, (var, _) in enumerate(pre.signature) if var == name]
                if at:
                    objs = {o for o in objs if (pre.name, at[-1], o) in init}
            n *= len(objs)
            if n > MAX_GROUNDINGS:
                raise ConfigError(
                    f"{where}: action {action.name} would be grounded over more than {MAX_GROUNDINGS:,} "
                    f"parameter assignments (at parameter {name}); the grounder would run out of memory or time. "
                    "Type the parameters (:typing), add static preconditions, or use fewer objects or parameters")


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
