"""PDDL files under fuzzing: ``load_pddl`` grounds a task or raises a ``ConfigError`` naming the file.

Never a traceback from pyperplan's parser, never a hang (a FIFO, a type cycle,
which sent pyperplan's grounder round forever), never a memory blow-up (``/dev/zero``,
an action with 20^8 groundings). Each fixed input here was a find of the deep tier.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.errors import ConfigError

from .strategies import _apply, mutated

pytest.importorskip("pyperplan")

from goalkeeper.planning.pddl import MAX_PDDL_DEPTH, load_pddl  # noqa: E402

DOMAIN = """(define (domain rooms) (:requirements :strips :typing)
  (:types room ball - object)
  (:predicates (at ?b - ball ?r - room) (link ?a ?b - room))
  ; a comment (with a paren
  (:action move :parameters (?b - ball ?from ?to - room)
     :precondition (and (at ?b ?from) (link ?from ?to))
     :effect (and (at ?b ?to) (not (at ?b ?from)))))
"""
PROBLEM = """(define (problem two) (:domain rooms)
  (:objects r1 r2 - room b - ball)
  (:init (at b r1) (link r1 r2))
  (:goal (and (at b r2))))
"""
PDDL_TOKENS = ["(", ")", "(" * 200, "?x", "- object", "(not ", "(and ", ":parameters", ":effect", "\x00", "\ud800",
               "9" * 5000, "\u202e", ";", "(:requirements :adl)", "(either room ball)", "(:types a - b b - a)",
               "(:objects x x x)", "(:domain other)", "(= ?a ?b)", "(forall (?x) (at ?x ?x))"]

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A hang (the old type-cycle loop) fails the test instead of stalling the suite."""
    def hung(*_: object) -> None:
        raise TimeoutError("load_pddl hung")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _load(tmp: Path, domain: str | bytes, problem: str | bytes = PROBLEM) -> str | None:
    """Load the pair; None when it grounds, else the ConfigError's message."""
    for name, text in (("domain.pddl", domain), ("task.pddl", problem)):
        (tmp / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    try:
        load_pddl(tmp / "domain.pddl", tmp / "task.pddl")
    except ConfigError as e:
        assert str(e) and "Traceback" not in str(e)
        return str(e)
    return None


def test_the_valid_pair_grounds(tmp_path: Path) -> None:
    assert _load(tmp_path, DOMAIN) is None


@FAST
@given(text=mutated(DOMAIN) | st.lists(st.tuples(st.sampled_from(["insert", "replace"]), st.floats(0, 1),
                                                 st.floats(0, 1), st.sampled_from(PDDL_TOKENS)),
                                       min_size=1, max_size=4).map(lambda ops: _apply(DOMAIN, ops)),
       in_domain=st.booleans())
def test_mutated_pddl(tmp_path: Path, text: str, in_domain: bool) -> None:
    if in_domain:
        _load(tmp_path, text)
    else:
        _load(tmp_path, DOMAIN, text.replace("(domain rooms)", "(problem two) (:domain rooms)", 1))


@pytest.mark.parametrize(("make", "needle"), [
    (lambda p: os.mkfifo(p), "is a FIFO"),
    (lambda p: p.mkdir(), "is a folder"),
    (lambda p: p.symlink_to("/dev/zero"), "is a device"),
    (lambda p: None, "no such PDDL domain file"),
    (lambda p: p.write_bytes(b"\xff\xfe(define"), "not UTF-8 text"),
    (lambda p: p.write_text("(define (domain d)" + "(" * 5000), f"deeper than {MAX_PDDL_DEPTH} levels"),
    (lambda p: (p.touch(), os.truncate(p, (16 << 20) + 1)), "over the 16 MiB limit"),
])
def test_files_that_are_not_pddl_text(tmp_path: Path, make: object, needle: str) -> None:
    (tmp_path / "task.pddl").write_text(PROBLEM)
    p = tmp_path / "domain.pddl"
    make(p)  # type: ignore[operator]
    with pytest.raises(ConfigError) as err:
        load_pddl(p, tmp_path / "task.pddl")
    assert needle in str(err.value) and str(p) in str(err.value)


def test_a_type_cycle_is_named_not_looped_on(tmp_path: Path) -> None:
    domain = """(define (domain cyc) (:requirements :strips :typing) (:types a - b b - a)
      (:predicates (p ?x - a) (q ?x - a))
      (:action go :parameters (?x - a) :precondition (p ?x) :effect (q ?x)))"""
    problem = "(define (problem q) (:domain cyc) (:objects o - a) (:init (p o)) (:goal (q o)))"
    assert "the types form a cycle" in (_load(tmp_path, domain, problem) or "")


def test_an_action_with_astronomic_groundings_is_refused_before_grounding(tmp_path: Path) -> None:
    args = " ".join(f"?{c}" for c in "abcdefgh")
    domain = f"""(define (domain big) (:requirements :strips) (:predicates (p {args}) (q))
      (:action go :parameters ({args}) :precondition (q) :effect (p {args})))"""
    objects = " ".join(f"o{i}" for i in range(20))
    problem = f"(define (problem q) (:domain big) (:objects {objects}) (:init (q)) (:goal (p {'o1 ' * 8})))"
    assert "parameter assignments" in (_load(tmp_path, domain, problem) or "")


def test_a_parse_error_names_both_files_in_a_sentence(tmp_path: Path) -> None:
    msg = _load(tmp_path, DOMAIN.replace(":effect", ":effeckt")) or ""
    assert str(tmp_path / "domain.pddl") in msg and "loader cannot read it (STRIPS" in msg
