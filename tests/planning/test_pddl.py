"""PDDL loading through pyperplan's grounder (dev-only dependency)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from goalkeeper.errors import MissingExtraError
from goalkeeper.planning.pddl import load_pddl

DOMAIN = """(define (domain toggle)
  (:requirements :strips)
  (:predicates (on ?x) (off ?x) (done))
  (:action flip :parameters (?x) :precondition (off ?x)
     :effect (and (on ?x) (not (off ?x))))
  (:action keep :parameters (?x) :precondition (on ?x)
     :effect (and (on ?x) (not (on ?x)) (done))))
"""
PROBLEM = """(define (problem p) (:domain toggle)
  (:objects a)
  (:init (off a))
  (:goal (and (on a) (done))))
"""


def test_strips_semantics_add_wins(tmp_path: Path) -> None:
    pytest.importorskip("pyperplan")
    (tmp_path / "d.pddl").write_text(DOMAIN)
    (tmp_path / "p.pddl").write_text(PROBLEM)
    task, init = load_pddl(tmp_path / "d.pddl", tmp_path / "p.pddl")
    assert all(d == (False, True) for d in task.domains)
    names = [o.name for o in task.operators]
    assert names == sorted(names)
    state = init
    for name in ("(flip a)", "(keep a)"):
        i = names.index(name)
        state = task.replay(state, [i])
    assert task.is_goal(state)  # "keep" adds and deletes (on a): it stays true


def test_benchmark_task_loads_deterministically() -> None:
    pytest.importorskip("pyperplan")
    base = Path("/work/shared/benchmarks/pddl/gripper")
    if not base.exists():
        pytest.skip("benchmark PDDL files not available")
    t1, i1 = load_pddl(base / "domain.pddl", base / "task01.pddl")
    t2, i2 = load_pddl(base / "domain.pddl", base / "task01.pddl")
    assert i1 == i2 and t1.operators == t2.operators
    assert len(t1.var_names) == 20 and len(t1.operators) == 34


def test_missing_pyperplan_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyperplan", None)
    monkeypatch.setitem(sys.modules, "pyperplan.grounding", None)
    with pytest.raises(MissingExtraError, match="bench"):
        load_pddl("d.pddl", "p.pddl")
