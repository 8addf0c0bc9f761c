"""More IPC domains, written here from their published descriptions.

- ``elevators``: slow and fast elevators with capacities; slow ones reach only their
  block of floors (IPC 2008). ``costs=True`` gives the IPC's action-cost version,
  travel cost per pair of floors as static functions.
- ``driverlog``: drivers walk paths, drive trucks on roads, trucks carry packages
  (IPC 2002).
- ``zenotravel``: planes fly (one fuel level) or zoom (two), refuel, carry people
  (IPC 2002 STRIPS version).
"""

from __future__ import annotations

import random

__all__ = ["driverlog", "elevators", "elevators_domain", "zenotravel", "DRIVERLOG",
           "ZENOTRAVEL"]

_ELEV = """(define (domain DOMNAME)
  (:requirements REQS)
  (:types elevator - object slow-elevator fast-elevator - elevator
          passenger - object count - object)
  (:predicates (passenger-at ?person - passenger ?floor - count)
    (boarded ?person - passenger ?lift - elevator) (lift-at ?lift - elevator ?floor - count)
    (reachable-floor ?lift - elevator ?floor - count) (above ?floor1 - count ?floor2 - count)
    (passengers ?lift - elevator ?n - count) (can-hold ?lift - elevator ?n - count)
    (next ?n1 - count ?n2 - count))FUNCS
  (:action move-up-slow
    :parameters (?lift - slow-elevator ?f1 - count ?f2 - count)
    :precondition (and (lift-at ?lift ?f1) (above ?f1 ?f2) (reachable-floor ?lift ?f2))
    :effect (and (lift-at ?lift ?f2) (not (lift-at ?lift ?f1))SLOW))
  (:action move-down-slow
    :parameters (?lift - slow-elevator ?f1 - count ?f2 - count)
    :precondition (and (lift-at ?lift ?f1) (above ?f2 ?f1) (reachable-floor ?lift ?f2))
    :effect (and (lift-at ?lift ?f2) (not (lift-at ?lift ?f1))SLOW))
  (:action move-up-fast
    :parameters (?lift - fast-elevator ?f1 - count ?f2 - count)
    :precondition (and (lift-at ?lift ?f1) (above ?f1 ?f2) (reachable-floor ?lift ?f2))
    :effect (and (lift-at ?lift ?f2) (not (lift-at ?lift ?f1))FAST))
  (:action move-down-fast
    :parameters (?lift - fast-elevator ?f1 - count ?f2 - count)
    :precondition (and (lift-at ?lift ?f1) (above ?f2 ?f1) (reachable-floor ?lift ?f2))
    :effect (and (lift-at ?lift ?f2) (not (lift-at ?lift ?f1))FAST))
  (:action board
    :parameters (?p - passenger ?lift - elevator ?f - count ?n1 - count ?n2 - count)
    :precondition (and (lift-at ?lift ?f) (passenger-at ?p ?f) (passengers ?lift ?n1)
                       (next ?n1 ?n2) (can-hold ?lift ?n2))
    :effect (and (not (passenger-at ?p ?f)) (boarded ?p ?lift)
                 (not (passengers ?lift ?n1)) (passengers ?lift ?n2)))
  (:action leave
    :parameters (?p - passenger ?lift - elevator ?f - count ?n1 - count ?n2 - count)
    :precondition (and (lift-at ?lift ?f) (boarded ?p ?lift) (passengers ?lift ?n1)
                       (next ?n2 ?n1))
    :effect (and (passenger-at ?p ?f) (not (boarded ?p ?lift))
                 (not (passengers ?lift ?n1)) (passengers ?lift ?n2))))
"""


def elevators_domain(costs: bool) -> str:
    text = _ELEV.replace("DOMNAME", "elevators-costs" if costs else "elevators")
    if not costs:
        text = text.replace("REQS", ":strips :typing").replace("FUNCS", "")
        return text.replace("SLOW", "").replace("FAST", "")
    text = text.replace("REQS", ":typing :action-costs").replace("FUNCS", (
        "\n  (:functions (total-cost) - number (travel-slow ?f1 - count ?f2 - count) - number"
        "\n    (travel-fast ?f1 - count ?f2 - count) - number)"))
    return (text.replace("SLOW", " (increase (total-cost) (travel-slow ?f1 ?f2))")
            .replace("FAST", " (increase (total-cost) (travel-fast ?f1 ?f2))"))


def elevators(floors: int, block: int, passengers: int, seed: int, costs: bool = False) -> str:
    """``floors`` floors (a multiple of ``block``), one fast elevator stopping at every
    second floor and one slow elevator per block, capacity 2 (fast) and 2 (slow)."""
    rng = random.Random(seed)
    fl = [f"n{i}" for i in range(floors + 1)]
    cap = 3
    counts = [f"c{i}" for i in range(cap + 1)]
    slows = [f"slow{k}" for k in range(floors // block)]
    init = [f"(next c{i} c{i + 1})" for i in range(cap)]
    init += [f"(above n{i} n{j})" for i in range(floors + 1) for j in range(i + 1, floors + 1)]
    init += ["(lift-at fast0 n0)", "(passengers fast0 c0)"]
    init += [f"(can-hold fast0 c{i})" for i in range(1, 3)]
    init += [f"(reachable-floor fast0 n{i})" for i in range(0, floors + 1, 2)]
    for k, s in enumerate(slows):
        lo, hi = k * block, (k + 1) * block
        init += [f"(lift-at {s} n{rng.randint(lo, hi)})", f"(passengers {s} c0)"]
        init += [f"(can-hold {s} c{i})" for i in range(1, 3)]
        init += [f"(reachable-floor {s} n{i})" for i in range(lo, hi + 1)]
    goal = []
    for p in range(passengers):
        a, b = rng.sample(range(floors + 1), 2)
        init.append(f"(passenger-at p{p} n{a})")
        goal.append(f"(passenger-at p{p} n{b})")
    metric = ""
    if costs:
        init.append("(= (total-cost) 0)")
        for i in range(floors + 1):
            for j in range(floors + 1):
                if i != j:
                    init.append(f"(= (travel-slow n{i} n{j}) {6 + abs(i - j)})")
                    init.append(f"(= (travel-fast n{i} n{j}) {13 + abs(i - j) // 2})")
        metric = "\n  (:metric minimize (total-cost))"
    dom = "elevators-costs" if costs else "elevators"
    return (f"(define (problem elevators-{floors}-{passengers}) (:domain {dom})\n"
            f"  (:objects fast0 - fast-elevator {' '.join(slows)} - slow-elevator\n"
            f"    {' '.join(f'p{p}' for p in range(passengers))} - passenger\n"
            f"    {' '.join(fl + counts)} - count)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})){metric})\n")


DRIVERLOG = """(define (domain driverlog)
  (:requirements :strips :typing)
  (:types location locatable - object driver truck obj - locatable)
  (:predicates (at ?obj - locatable ?loc - location) (in ?obj1 - obj ?obj - truck)
    (driving ?d - driver ?v - truck) (link ?x ?y - location) (path ?x ?y - location)
    (empty ?v - truck))
  (:action load-truck
    :parameters (?obj - obj ?truck - truck ?loc - location)
    :precondition (and (at ?truck ?loc) (at ?obj ?loc))
    :effect (and (not (at ?obj ?loc)) (in ?obj ?truck)))
  (:action unload-truck
    :parameters (?obj - obj ?truck - truck ?loc - location)
    :precondition (and (at ?truck ?loc) (in ?obj ?truck))
    :effect (and (not (in ?obj ?truck)) (at ?obj ?loc)))
  (:action board-truck
    :parameters (?driver - driver ?truck - truck ?loc - location)
    :precondition (and (at ?truck ?loc) (at ?driver ?loc) (empty ?truck))
    :effect (and (not (at ?driver ?loc)) (driving ?driver ?truck) (not (empty ?truck))))
  (:action disembark-truck
    :parameters (?driver - driver ?truck - truck ?loc - location)
    :precondition (and (at ?truck ?loc) (driving ?driver ?truck))
    :effect (and (not (driving ?driver ?truck)) (at ?driver ?loc) (empty ?truck)))
  (:action drive-truck
    :parameters (?truck - truck ?loc-from - location ?loc-to - location ?driver - driver)
    :precondition (and (at ?truck ?loc-from) (driving ?driver ?truck) (link ?loc-from ?loc-to))
    :effect (and (not (at ?truck ?loc-from)) (at ?truck ?loc-to)))
  (:action walk
    :parameters (?driver - driver ?loc-from - location ?loc-to - location)
    :precondition (and (at ?driver ?loc-from) (path ?loc-from ?loc-to))
    :effect (and (not (at ?driver ?loc-from)) (at ?driver ?loc-to))))
"""


def driverlog(locs: int, drivers: int, trucks: int, packages: int, seed: int) -> str:
    rng = random.Random(seed)
    ls = [f"s{i}" for i in range(locs)]
    init: list[str] = []
    roads = set()
    for i in range(1, locs):
        roads.add((i, rng.randrange(i)))
    for _ in range(locs // 2):
        roads.add(tuple(rng.sample(range(locs), 2)))  # type: ignore[arg-type]
    ps = []
    for a, b in sorted(roads):
        init += [f"(link s{a} s{b})", f"(link s{b} s{a})"]
        p = f"p{a}-{b}"  # a footpath via an intermediate point, as the IPC tasks have
        ps.append(p)
        init += [f"(path s{a} {p})", f"(path {p} s{a})", f"(path s{b} {p})", f"(path {p} s{b})"]
    init += [f"(at driver{k} s{rng.randrange(locs)})" for k in range(drivers)]
    init += [f"(at truck{k} s{rng.randrange(locs)}) (empty truck{k})" for k in range(trucks)]
    goal = []
    for k in range(packages):
        a, b = rng.sample(range(locs), 2)
        init.append(f"(at package{k} s{a})")
        goal.append(f"(at package{k} s{b})")
    goal.append(f"(at driver0 s{rng.randrange(locs)})")
    return (f"(define (problem driverlog-{locs}-{packages}) (:domain driverlog)\n"
            f"  (:objects {' '.join(f'driver{k}' for k in range(drivers))} - driver\n"
            f"    {' '.join(f'truck{k}' for k in range(trucks))} - truck\n"
            f"    {' '.join(f'package{k}' for k in range(packages))} - obj\n"
            f"    {' '.join(ls + ps)} - location)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")


ZENOTRAVEL = """(define (domain zenotravel)
  (:requirements :strips :typing)
  (:types locatable city flevel - object aircraft person - locatable)
  (:predicates (at ?x - locatable ?c - city) (in ?p - person ?a - aircraft)
    (fuel-level ?a - aircraft ?l - flevel) (next ?l1 ?l2 - flevel))
  (:action board
    :parameters (?p - person ?a - aircraft ?c - city)
    :precondition (and (at ?p ?c) (at ?a ?c))
    :effect (and (not (at ?p ?c)) (in ?p ?a)))
  (:action debark
    :parameters (?p - person ?a - aircraft ?c - city)
    :precondition (and (in ?p ?a) (at ?a ?c))
    :effect (and (not (in ?p ?a)) (at ?p ?c)))
  (:action fly
    :parameters (?a - aircraft ?c1 ?c2 - city ?l1 ?l2 - flevel)
    :precondition (and (at ?a ?c1) (fuel-level ?a ?l1) (next ?l2 ?l1))
    :effect (and (not (at ?a ?c1)) (at ?a ?c2) (not (fuel-level ?a ?l1)) (fuel-level ?a ?l2)))
  (:action zoom
    :parameters (?a - aircraft ?c1 ?c2 - city ?l1 ?l2 ?l3 - flevel)
    :precondition (and (at ?a ?c1) (fuel-level ?a ?l1) (next ?l2 ?l1) (next ?l3 ?l2))
    :effect (and (not (at ?a ?c1)) (at ?a ?c2) (not (fuel-level ?a ?l1)) (fuel-level ?a ?l3)))
  (:action refuel
    :parameters (?a - aircraft ?c - city ?l ?l1 - flevel)
    :precondition (and (fuel-level ?a ?l) (next ?l ?l1) (at ?a ?c))
    :effect (and (fuel-level ?a ?l1) (not (fuel-level ?a ?l)))))
"""


def zenotravel(cities: int, planes: int, people: int, seed: int) -> str:
    rng = random.Random(seed)
    init = [f"(next fl{i} fl{i + 1})" for i in range(6)]
    init += [f"(at plane{k} city{rng.randrange(cities)}) (fuel-level plane{k} fl{rng.randint(0, 6)})"
             for k in range(planes)]
    goal = []
    for k in range(people):
        a, b = rng.sample(range(cities), 2)
        init.append(f"(at person{k} city{a})")
        goal.append(f"(at person{k} city{b})")
    goal.append(f"(at plane0 city{rng.randrange(cities)})")
    return (f"(define (problem zenotravel-{cities}-{people}) (:domain zenotravel)\n"
            f"  (:objects {' '.join(f'plane{k}' for k in range(planes))} - aircraft\n"
            f"    {' '.join(f'person{k}' for k in range(people))} - person\n"
            f"    {' '.join(f'city{k}' for k in range(cities))} - city\n"
            f"    {' '.join(f'fl{k}' for k in range(7))} - flevel)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")
