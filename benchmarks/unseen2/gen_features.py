"""Small domains, one PDDL feature beyond STRIPS + typing each, written here.

They check what goalkeeper's PDDL loader (``goalkeeper.planning.pddl.load_pddl``)
does with a construct: plan it, or refuse it with an error naming the construct.
Fast Downward handles them all, so its plans and costs are the reference.

- ``briefcase``: conditional effects inside a ``forall`` effect, negative
  preconditions (the ADL briefcase world of Pednault).
- ``switches``: negative preconditions only (``:negative-preconditions``).
- ``blocks-eq``: a one-action blocks world with ``(not (= ?x ?y))`` (``:equality``).
- ``gripper-either``: ``either`` types in predicate and action parameters.
- ``hierarchy``: subtypes declared before their parents, typed constants, a 0-ary
  action and predicate (plain STRIPS + typing otherwise).
- ``keys``: disjunctive and existential preconditions, a universal precondition, a
  domain constant and a quantified goal (rooms, locked doors, keys).
- ``floortile-costs`` and ``elevators-costs`` (from ``gen_strips`` / ``gen_more``):
  ``:action-costs`` with constant and function-valued ``(increase (total-cost) ...)``.
"""

from __future__ import annotations

import random

__all__ = ["BLOCKS_EQ", "BRIEFCASE", "GRIPPER_EITHER", "HIERARCHY", "KEYS", "SWITCHES", "blocks_eq",
           "briefcase", "gripper_either", "hierarchy", "keys", "switches"]

BRIEFCASE = """(define (domain briefcase)
  (:requirements :typing :conditional-effects :negative-preconditions :universal-preconditions)
  (:types portable location)
  (:predicates (at ?y - portable ?x - location) (in ?x - portable) (is-at ?x - location))
  (:action move
    :parameters (?m ?l - location)
    :precondition (is-at ?m)
    :effect (and (is-at ?l) (not (is-at ?m))
                 (forall (?x - portable) (when (in ?x) (and (at ?x ?l) (not (at ?x ?m)))))))
  (:action take-out
    :parameters (?x - portable)
    :precondition (in ?x)
    :effect (not (in ?x)))
  (:action put-in
    :parameters (?x - portable ?l - location)
    :precondition (and (not (in ?x)) (at ?x ?l) (is-at ?l))
    :effect (in ?x)))
"""


def briefcase(locs: int, items: int, seed: int) -> str:
    rng = random.Random(seed)
    init = ["(is-at loc0)"]
    goal = [f"(is-at loc{rng.randrange(locs)})"]
    for i in range(items):
        a, b = rng.sample(range(locs), 2)
        init.append(f"(at obj{i} loc{a})")
        goal += [f"(at obj{i} loc{b})", f"(not (in obj{i}))"]
    return (f"(define (problem briefcase-{locs}-{items}) (:domain briefcase)\n"
            f"  (:objects {' '.join(f'obj{i}' for i in range(items))} - portable\n"
            f"    {' '.join(f'loc{i}' for i in range(locs))} - location)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")


SWITCHES = """(define (domain switches)
  (:requirements :strips :typing :negative-preconditions)
  (:types light)
  (:predicates (on ?l - light) (wired ?a ?b - light) (broken ?l - light))
  (:action switch-on
    :parameters (?l - light)
    :precondition (and (not (on ?l)) (not (broken ?l)))
    :effect (on ?l))
  (:action switch-off
    :parameters (?l - light)
    :precondition (on ?l)
    :effect (not (on ?l)))
  (:action repair
    :parameters (?l ?helper - light)
    :precondition (and (broken ?l) (wired ?l ?helper) (not (on ?helper)))
    :effect (not (broken ?l))))
"""


def switches(n: int, seed: int) -> str:
    rng = random.Random(seed)
    init = [f"(wired light{i} light{(i + 1) % n})" for i in range(n)]
    init += [f"(broken light{i})" for i in range(n) if rng.random() < 0.5]
    init += [f"(on light{i})" for i in range(n) if rng.random() < 0.5]
    return (f"(define (problem switches-{n}) (:domain switches)\n"
            f"  (:objects {' '.join(f'light{i}' for i in range(n))} - light)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(f'(on light{i})' for i in range(n))})))\n")


BLOCKS_EQ = """(define (domain blocks-eq)
  (:requirements :strips :typing :equality)
  (:types block)
  (:constants table - block)
  (:predicates (on ?x ?y - block) (clear ?x - block))
  (:action move
    :parameters (?b ?from ?to - block)
    :precondition (and (on ?b ?from) (clear ?b) (clear ?to) (not (= ?b ?to))
                       (not (= ?from ?to)) (not (= ?b table)))
    :effect (and (on ?b ?to) (not (on ?b ?from)) (clear ?from) (not (clear ?to))
                 (clear table))))
"""


def _towers(n: int, rng: random.Random) -> list[str]:
    blocks = [f"b{i}" for i in range(n)]
    rng.shuffle(blocks)
    facts: list[str] = []
    below: dict[str, str] = {}
    for b in blocks:
        tops = [x for x in blocks if x in below and x not in below.values()]
        under = rng.choice([*tops, "table"]) if tops else "table"
        below[b] = under
        facts.append(f"(on {b} {under})")
    tops = [b for b in blocks if b not in below.values()]
    return facts + [f"(clear {b})" for b in tops]


def blocks_eq(n: int, seed: int) -> str:
    rng = random.Random(seed)
    init = [*_towers(n, rng), "(clear table)"]
    goal = [f for f in _towers(n, rng) if f.startswith("(on")]
    return (f"(define (problem blocks-eq-{n}) (:domain blocks-eq)\n"
            f"  (:objects {' '.join(f'b{i}' for i in range(n))} - block)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")


GRIPPER_EITHER = """(define (domain gripper-either)
  (:requirements :strips :typing)
  (:types room ball gripper robot)
  (:predicates (at ?o - (either ball robot) ?r - room) (carry ?b - ball ?g - gripper)
    (free ?g - gripper) (part ?g - gripper ?r - robot))
  (:action move
    :parameters (?rob - robot ?from ?to - room)
    :precondition (at ?rob ?from)
    :effect (and (at ?rob ?to) (not (at ?rob ?from))))
  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper ?rob - robot)
    :precondition (and (at ?b ?r) (at ?rob ?r) (part ?g ?rob) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper ?rob - robot)
    :precondition (and (carry ?b ?g) (at ?rob ?r) (part ?g ?rob))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
"""


def gripper_either(balls: int, rooms: int, seed: int) -> str:
    rng = random.Random(seed)
    init = ["(at robby room0)", "(part left robby)", "(part right robby)", "(free left)",
            "(free right)"]
    goal = []
    for b in range(balls):
        init.append(f"(at ball{b} room{rng.randrange(rooms)})")
        goal.append(f"(at ball{b} room{rng.randrange(rooms)})")
    return (f"(define (problem gripper-either-{balls}) (:domain gripper-either)\n"
            f"  (:objects robby - robot left right - gripper\n"
            f"    {' '.join(f'room{r}' for r in range(rooms))} - room\n"
            f"    {' '.join(f'ball{b}' for b in range(balls))} - ball)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")


KEYS = """(define (domain keys)
  (:requirements :typing :equality :disjunctive-preconditions :existential-preconditions
                 :universal-preconditions :negative-preconditions)
  (:types room key)
  (:constants hall - room)
  (:predicates (at ?r - room) (adj ?a ?b - room) (locked ?r - room) (opens ?k - key ?r - room)
    (key-at ?k - key ?r - room) (holding ?k - key) (done))
  (:action walk
    :parameters (?a ?b - room)
    :precondition (and (at ?a) (adj ?a ?b)
                       (or (not (locked ?b))
                           (exists (?k - key) (and (holding ?k) (opens ?k ?b)))))
    :effect (and (at ?b) (not (at ?a))))
  (:action take
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (key-at ?k ?r))
    :effect (and (holding ?k) (not (key-at ?k ?r))))
  (:action drop
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (holding ?k))
    :effect (and (key-at ?k ?r) (not (holding ?k))))
  (:action finish
    :parameters ()
    :precondition (and (at hall) (forall (?k - key) (not (holding ?k))))
    :effect (done)))
"""


def keys(rooms: int, seed: int) -> str:
    """A corridor of rooms off the hall; room i+1's key lies in room i (or the hall)."""
    rng = random.Random(seed)
    rs = [f"r{i}" for i in range(rooms)]
    chain = ["hall", *rs]
    init = ["(at hall)"]
    for a, b in zip(chain, chain[1:], strict=False):
        init += [f"(adj {a} {b})", f"(adj {b} {a})"]
    for i in range(rooms):
        if i == 0 or rng.random() < 0.7:
            init.append(f"(locked r{i})")
            init.append(f"(opens key{i} r{i})")
            init.append(f"(key-at key{i} {chain[rng.randrange(i + 1)]})")
        else:
            init.append(f"(opens key{i} r{i})")
            init.append(f"(key-at key{i} r{i})")
    goal = ("(and (done) (forall (?k - key) (exists (?r - room) (and (key-at ?k ?r) "
            f"(not (= ?r hall))))) (key-at key0 {rs[-1]}))")
    return (f"(define (problem keys-{rooms}) (:domain keys)\n"
            f"  (:objects {' '.join(rs)} - room {' '.join(f'key{i}' for i in range(rooms))} - key)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal {goal}))\n")


HIERARCHY = """(define (domain hierarchy)
  (:requirements :strips :typing)
  (:types truck van - vehicle vehicle parcel - thing thing place - object)
  (:constants depot - place van0 - van)
  (:predicates (at ?t - thing ?p - place) (in ?x - parcel ?v - vehicle) (road ?a ?b - place)
    (ready) (wide ?p - place))
  (:action start
    :parameters ()
    :precondition (at van0 depot)
    :effect (ready))
  (:action drive-van
    :parameters (?v - van ?a ?b - place)
    :precondition (and (ready) (at ?v ?a) (road ?a ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a))))
  (:action drive-truck
    :parameters (?v - truck ?a ?b - place)
    :precondition (and (ready) (at ?v ?a) (road ?a ?b) (wide ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a))))
  (:action load
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (at ?x ?p) (at ?v ?p))
    :effect (and (in ?x ?v) (not (at ?x ?p))))
  (:action unload
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (in ?x ?v) (at ?v ?p))
    :effect (and (at ?x ?p) (not (in ?x ?v)))))
"""


def hierarchy(places: int, parcels: int, seed: int) -> str:
    """Subtypes declared before their parents, typed constants, a 0-ary action."""
    rng = random.Random(seed)
    ps = [f"p{i}" for i in range(places)]
    allp = ["depot", *ps]
    init = ["(at van0 depot)", "(at truck0 depot)", "(wide depot)"]
    for a, b in zip(allp, allp[1:], strict=False):
        init += [f"(road {a} {b})", f"(road {b} {a})"]
    init += [f"(wide {p})" for p in ps if rng.random() < 0.5]
    goal = []
    for k in range(parcels):
        a, b = rng.sample(allp, 2)
        init.append(f"(at parcel{k} {a})")
        goal.append(f"(at parcel{k} {b})")
    return (f"(define (problem hierarchy-{places}-{parcels}) (:domain hierarchy)\n"
            f"  (:objects truck0 - truck {' '.join(ps)} - place\n"
            f"    {' '.join(f'parcel{k}' for k in range(parcels))} - parcel)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")
