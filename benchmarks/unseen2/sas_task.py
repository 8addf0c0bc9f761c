"""Ground PDDL with Fast Downward's translator into a goalkeeper ``Task`` (an experiment).

``load_pddl`` grounds through pyperplan: STRIPS + typing only, one binary variable
per fact, unit costs. Fast Downward's translator (in the up-fast-downward wheel)
takes negative and disjunctive preconditions, equality, quantifiers and action costs,
and finds mutex groups that become multi-valued variables. goalkeeper's ``Task``
already has multi-valued variables and operator costs, so the translator's output
(``output.sas``) maps onto it directly; conditional effects and axioms have no
counterpart there and are refused by name. Translation is not timed, as FD's own
search time excludes it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from goalkeeper.planning.task import GroundAction, Task  # noqa: E402

__all__ = ["Unsupported", "load_sas", "translate"]


class Unsupported(Exception):
    """The translated task uses a construct goalkeeper's Task cannot hold."""


def translate(domain: Path, problem: Path, tmp: Path) -> Path:
    from fd_run import fd_script  # type: ignore[import-not-found]

    script = fd_script()
    if script is None:
        raise Unsupported("Fast Downward (up-fast-downward) is not installed")
    proc = subprocess.run([sys.executable, str(script), "--translate", str(domain.resolve()),
                           str(problem.resolve())],
                          capture_output=True, text=True, cwd=tmp, timeout=600)
    out = tmp / "output.sas"
    if proc.returncode != 0 or not out.exists():
        raise Unsupported(f"translator failed: {proc.stdout[-300:]}")
    return out


def _parse(text: str) -> tuple[Task, int]:
    lines = iter(text.splitlines())

    def nxt() -> str:
        return next(lines).strip()

    def expect(word: str) -> None:
        got = nxt()
        if got != word:
            raise Unsupported(f"output.sas: expected {word!r}, got {got!r}")

    expect("begin_version")
    nxt()
    expect("end_version")
    expect("begin_metric")
    metric = nxt() == "1"
    expect("end_metric")
    names: list[str] = []
    domains: list[list[str]] = []
    for _ in range(int(nxt())):
        expect("begin_variable")
        names.append(nxt())
        if nxt() != "-1":
            raise Unsupported("derived variables (axioms) are not supported")
        domains.append([nxt() for _ in range(int(nxt()))])
        expect("end_variable")
    for _ in range(int(nxt())):  # mutex groups: implied by the variables, not needed
        expect("begin_mutex_group")
        for _ in range(int(nxt())):
            nxt()
        expect("end_mutex_group")
    expect("begin_state")
    values = [int(nxt()) for _ in names]
    expect("end_state")
    expect("begin_goal")
    goal = [tuple(map(int, nxt().split())) for _ in range(int(nxt()))]
    expect("end_goal")
    actions: list[GroundAction] = []
    for _ in range(int(nxt())):
        expect("begin_operator")
        name = f"({nxt()})"
        pre: dict[int, int] = {}
        for _ in range(int(nxt())):
            v, val = map(int, nxt().split())
            pre[v] = val
        eff: list[tuple[int, int]] = []
        for _ in range(int(nxt())):
            parts = list(map(int, nxt().split()))
            if parts[0] != 0:
                raise Unsupported(f"conditional effects are not supported ({name})")
            v, old, new = parts[1:4]
            if old >= 0:
                pre[v] = old
            eff.append((v, new))
        cost_line = nxt()
        cost = float(cost_line) if metric else 1.0  # no metric: FD plans with unit costs
        expect("end_operator")
        actions.append(GroundAction(name, tuple(sorted((v, frozenset({x})) for v, x in pre.items())),
                                    tuple(sorted(eff)), cost))
    if int(nxt()) != 0:
        raise Unsupported("axioms are not supported")
    task = Task.compile(names, domains, actions, [(v, frozenset({x})) for v, x in goal])
    return task, task.encode(values)


def load_sas(domain: Path, problem: Path) -> tuple[Task, int]:
    with tempfile.TemporaryDirectory() as tmp:
        return _parse(translate(domain, problem, Path(tmp)).read_text())
