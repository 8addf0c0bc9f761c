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


UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen2" / "pddl"


@pytest.mark.parametrize(("domain", "named"), [
    ("switches", ":negative-preconditions"), ("blocks-eq", ":equality"), ("briefcase", ":conditional-effects"),
    ("keys", ":existential-preconditions"), ("floortile-costs", ":action-costs"),
])
def test_a_construct_the_loader_cannot_read_is_a_clear_error_naming_it(domain: str, named: str) -> None:
    pytest.importorskip("pyperplan")
    from goalkeeper.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        load_pddl(UNSEEN / domain / "domain.pddl", UNSEEN / domain / "task01.pddl")
    text = str(err.value)
    assert named in text and f"{domain}/domain.pddl" in text and "STRIPS with :typing" in text


def test_a_construct_without_a_requirements_line_is_named_too(tmp_path: Path) -> None:
    pytest.importorskip("pyperplan")
    from goalkeeper.errors import ConfigError

    (tmp_path / "d.pddl").write_text(
        "(define (domain d) (:predicates (p) (q))\n"
        " (:action a :parameters () :precondition (or (p) (q)) :effect (q)))\n")
    (tmp_path / "t.pddl").write_text("(define (problem t) (:domain d) (:init (p)) (:goal (q)))\n")
    with pytest.raises(ConfigError, match="disjunctive preconditions"):
        load_pddl(tmp_path / "d.pddl", tmp_path / "t.pddl")
