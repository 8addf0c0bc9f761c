"""STRIPS + typing domains of the IPC that neither benchmark folder has.

Written here from the domains' published descriptions (IPC 2002-2011), unit costs
(the IPC versions of nomystery, parking and floortile add costs; ``gen_features``
has cost versions of floortile and elevators). Each generator returns a problem
text; ``gen.py`` names the instance sizes.

- ``nomystery``: trucks with fuel levels carry packages on a graph (IPC 2011).
- ``parking``: cars parked at curbs, at most two deep, rearranged (IPC 2008).
- ``spanner``: a man walks a one-way corridor picking up single-use spanners to
  tighten nuts at the gate (IPC 2011 learning track).
- ``floortile``: robots paint a grid from above and below, never stepping on paint
  (IPC 2011; unit costs here).
- ``elevators``: slow and fast elevators with capacities (IPC 2008; unit costs).
- ``driverlog``: drivers walk paths, drive trucks on roads, trucks carry packages
  (IPC 2002).
- ``zenotravel``: planes fly or zoom, burning fuel levels, carrying people (IPC 2002).
"""

from __future__ import annotations

import random

__all__ = ["NOMYSTERY", "PARKING", "SPANNER", "floortile", "floortile_domain", "nomystery",
           "parking", "spanner"]

NOMYSTERY = """(define (domain nomystery)
  (:requirements :strips :typing)
  (:types location fuellevel locatable - object package truck - locatable)
  (:predicates (connected ?l1 ?l2 - location) (at ?o - locatable ?l - location)
    (in ?p - package ?t - truck) (fuel ?t - truck ?level - fuellevel)
    (fuelcost ?level - fuellevel ?l1 ?l2 - location) (sum ?a ?b ?c - fuellevel))
  (:action load
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (at ?p ?l))
    :effect (and (not (at ?p ?l)) (in ?p ?t)))
  (:action unload
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (in ?p ?t))
    :effect (and (at ?p ?l) (not (in ?p ?t))))
  (:action drive
    :parameters (?t - truck ?l1 ?l2 - location ?post ?delta ?pre - fuellevel)
    :precondition (and (connected ?l1 ?l2) (fuelcost ?delta ?l1 ?l2) (fuel ?t ?pre)
                       (sum ?post ?delta ?pre) (at ?t ?l1))
    :effect (and (not (at ?t ?l1)) (at ?t ?l2) (not (fuel ?t ?pre)) (fuel ?t ?post))))
"""


def nomystery(locs: int, packages: int, slack: float, seed: int) -> str:
    rng = random.Random(seed)
    ls = [f"l{i}" for i in range(locs)]
    edges: dict[tuple[int, int], int] = {}
    for i in range(1, locs):  # a random tree, then a few extra edges
        j = rng.randrange(i)
        edges[(i, j)] = edges[(j, i)] = rng.randint(1, 3)
    for _ in range(locs // 2):
        i, j = rng.sample(range(locs), 2)
        edges.setdefault((i, j), edges.setdefault((j, i), rng.randint(1, 3)))
    pk = [f"p{i}" for i in range(packages)]
    start = {p: rng.randrange(locs) for p in pk}
    goal = {p: rng.choice([x for x in range(locs) if x != start[p]]) for p in pk}
    # fuel: slack x (sum of the edge costs of a spanning tree walked there and back)
    need = sum(c for (i, j), c in edges.items() if i > j) * 2
    fuel = max(3, int(need * slack))
    lv = [f"f{i}" for i in range(fuel + 1)]
    init = ["(at t0 l0)", f"(fuel t0 f{fuel})"]
    init += [f"(connected l{i} l{j}) (fuelcost f{c} l{i} l{j})" for (i, j), c in edges.items()]
    init += [f"(sum f{a} f{b} f{a + b})" for a in range(fuel + 1) for b in range(1, 4)
             if a + b <= fuel]
    init += [f"(at {p} l{start[p]})" for p in pk]
    return (f"(define (problem nomystery-{locs}-{packages}) (:domain nomystery)\n"
            f"  (:objects {' '.join(ls)} - location {' '.join(lv)} - fuellevel\n"
            f"    t0 - truck {' '.join(pk)} - package)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(f'(at {p} l{goal[p]})' for p in pk)})))\n")


PARKING = """(define (domain parking)
  (:requirements :strips :typing)
  (:types car curb)
  (:predicates (at-curb ?car - car) (at-curb-num ?car - car ?curb - curb)
    (behind-car ?car ?front-car - car) (car-clear ?car - car) (curb-clear ?curb - curb))
  (:action move-curb-to-curb
    :parameters (?car - car ?curbsrc ?curbdest - curb)
    :precondition (and (car-clear ?car) (curb-clear ?curbdest) (at-curb-num ?car ?curbsrc))
    :effect (and (not (curb-clear ?curbdest)) (curb-clear ?curbsrc)
                 (at-curb-num ?car ?curbdest) (not (at-curb-num ?car ?curbsrc))))
  (:action move-curb-to-car
    :parameters (?car - car ?curbsrc - curb ?cardest - car)
    :precondition (and (car-clear ?car) (car-clear ?cardest) (at-curb-num ?car ?curbsrc)
                       (at-curb ?cardest))
    :effect (and (not (car-clear ?cardest)) (curb-clear ?curbsrc) (behind-car ?car ?cardest)
                 (not (at-curb-num ?car ?curbsrc)) (not (at-curb ?car))))
  (:action move-car-to-curb
    :parameters (?car - car ?carsrc - car ?curbdest - curb)
    :precondition (and (car-clear ?car) (curb-clear ?curbdest) (behind-car ?car ?carsrc))
    :effect (and (not (curb-clear ?curbdest)) (car-clear ?carsrc)
                 (at-curb-num ?car ?curbdest) (not (behind-car ?car ?carsrc)) (at-curb ?car)))
  (:action move-car-to-car
    :parameters (?car - car ?carsrc - car ?cardest - car)
    :precondition (and (car-clear ?car) (car-clear ?cardest) (behind-car ?car ?carsrc)
                       (at-curb ?cardest))
    :effect (and (not (car-clear ?cardest)) (car-clear ?carsrc) (behind-car ?car ?cardest)
                 (not (behind-car ?car ?carsrc)))))
"""


def _parking_layout(curbs: int, cars: int, rng: random.Random) -> list[list[int]]:
    """Cars on curbs, at most two per curb, one curb left free."""
    slots = [[] for _ in range(curbs)]  # type: list[list[int]]
    order = list(range(cars))
    rng.shuffle(order)
    for c in order:
        open_ = [k for k in range(curbs - 1) if len(slots[k]) < 2] or [curbs - 1]
        slots[rng.choice(open_)].append(c)
    return slots


def parking(curbs: int, cars: int, seed: int) -> str:
    rng = random.Random(seed)
    start = _parking_layout(curbs, cars, rng)
    goal = _parking_layout(curbs, cars, rng)
    init: list[str] = []
    for k, stack in enumerate(start):
        if not stack:
            init.append(f"(curb-clear curb{k})")
            continue
        init += [f"(at-curb car{stack[0]})", f"(at-curb-num car{stack[0]} curb{k})"]
        if len(stack) == 2:
            init.append(f"(behind-car car{stack[1]} car{stack[0]})")
        init.append(f"(car-clear car{stack[-1]})")
    g: list[str] = []
    for k, stack in enumerate(goal):
        if stack:
            g.append(f"(at-curb-num car{stack[0]} curb{k})")
        if len(stack) == 2:
            g.append(f"(behind-car car{stack[1]} car{stack[0]})")
    return (f"(define (problem parking-{curbs}-{cars}) (:domain parking)\n"
            f"  (:objects {' '.join(f'car{i}' for i in range(cars))} - car\n"
            f"    {' '.join(f'curb{i}' for i in range(curbs))} - curb)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(g)})))\n")


SPANNER = """(define (domain spanner)
  (:requirements :strips :typing)
  (:types location locatable - object man nut spanner - locatable)
  (:predicates (at ?m - locatable ?l - location) (carrying ?m - man ?s - spanner)
    (useable ?s - spanner) (link ?l1 ?l2 - location) (tightened ?n - nut) (loose ?n - nut))
  (:action walk
    :parameters (?start ?end - location ?m - man)
    :precondition (and (at ?m ?start) (link ?start ?end))
    :effect (and (not (at ?m ?start)) (at ?m ?end)))
  (:action pickup_spanner
    :parameters (?l - location ?s - spanner ?m - man)
    :precondition (and (at ?m ?l) (at ?s ?l))
    :effect (and (not (at ?s ?l)) (carrying ?m ?s)))
  (:action tighten_nut
    :parameters (?l - location ?s - spanner ?m - man ?n - nut)
    :precondition (and (at ?m ?l) (at ?n ?l) (carrying ?m ?s) (useable ?s) (loose ?n))
    :effect (and (not (loose ?n)) (not (useable ?s)) (tightened ?n))))
"""


def spanner(locs: int, spanners: int, nuts: int, seed: int) -> str:
    rng = random.Random(seed)
    ls = ["shed", *[f"loc{i}" for i in range(locs)], "gate"]
    init = ["(at bob shed)"]
    init += [f"(link {a} {b})" for a, b in zip(ls, ls[1:], strict=False)]
    for i in range(spanners):
        init += [f"(at spanner{i} {rng.choice(ls[1:-1])})", f"(useable spanner{i})"]
    init += [f"(at nut{i} gate) (loose nut{i})" for i in range(nuts)]
    return (f"(define (problem spanner-{locs}-{spanners}-{nuts}) (:domain spanner)\n"
            f"  (:objects bob - man {' '.join(f'spanner{i}' for i in range(spanners))} - spanner\n"
            f"    {' '.join(f'nut{i}' for i in range(nuts))} - nut {' '.join(ls)} - location)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(f'(tightened nut{i})' for i in range(nuts))})))\n")


FLOORTILE_BODY = """  (:types robot tile color - object)
  (:predicates (robot-at ?r - robot ?x - tile) (up ?x - tile ?y - tile)
    (down ?x - tile ?y - tile) (right ?x - tile ?y - tile) (left ?x - tile ?y - tile)
    (clear ?x - tile) (painted ?x - tile ?c - color) (robot-has ?r - robot ?c - color)
    (available-color ?c - color) (free-color ?r - robot))
  (:action change-color
    :parameters (?r - robot ?c - color ?c2 - color)
    :precondition (and (robot-has ?r ?c) (available-color ?c2))
    :effect (and (not (robot-has ?r ?c)) (robot-has ?r ?c2)COST5))
  (:action paint-up
    :parameters (?r - robot ?y - tile ?x - tile ?c - color)
    :precondition (and (robot-has ?r ?c) (robot-at ?r ?x) (up ?y ?x) (clear ?y))
    :effect (and (not (clear ?y)) (painted ?y ?c)COST2))
  (:action paint-down
    :parameters (?r - robot ?y - tile ?x - tile ?c - color)
    :precondition (and (robot-has ?r ?c) (robot-at ?r ?x) (down ?y ?x) (clear ?y))
    :effect (and (not (clear ?y)) (painted ?y ?c)COST2))
  (:action up
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (up ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))COST3))
  (:action down
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (down ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))COST1))
  (:action right
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (right ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))COST1))
  (:action left
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (left ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (not (robot-at ?r ?x)) (clear ?x) (not (clear ?y))COST1)))
"""


def floortile_domain(costs: bool) -> str:
    body = FLOORTILE_BODY
    for c in "1235":
        body = body.replace(f"COST{c}", f" (increase (total-cost) {c})" if costs else "")
    if not costs:
        return f"(define (domain floortile)\n  (:requirements :strips :typing)\n{body}"
    return ("(define (domain floortile-costs)\n  (:requirements :typing :action-costs)\n"
            + body.replace("  (:action change-color",
                           "  (:functions (total-cost) - number)\n  (:action change-color", 1))


def floortile(rows: int, cols: int, robots: int, seed: int, costs: bool = False) -> str:
    rng = random.Random(seed)
    # row 0 is the bottom row, left unpainted (robots start there); rows 1.. get painted
    tiles = [f"tile_{r}-{c}" for r in range(rows + 1) for c in range(cols)]
    init = [f"(available-color {c})" for c in ("white", "black")]
    free = list(range(cols))
    rng.shuffle(free)
    for k in range(robots):
        init += [f"(robot-at robot{k} tile_0-{free[k]})",
                 f"(robot-has robot{k} {rng.choice(['white', 'black'])})"]
    occupied = {f"tile_0-{free[k]}" for k in range(robots)}
    init += [f"(clear {t})" for t in tiles if t not in occupied]
    for r in range(rows + 1):
        for c in range(cols):
            if r < rows:
                init.append(f"(up tile_{r + 1}-{c} tile_{r}-{c})")
                init.append(f"(down tile_{r}-{c} tile_{r + 1}-{c})")
            if c < cols - 1:
                init.append(f"(right tile_{r}-{c + 1} tile_{r}-{c})")
                init.append(f"(left tile_{r}-{c} tile_{r}-{c + 1})")
    goal = [f"(painted tile_{r}-{c} {'white' if (r + c) % 2 else 'black'})"
            for r in range(1, rows + 1) for c in range(cols)]
    metric = "\n  (:metric minimize (total-cost))" if costs else ""
    if costs:
        init.append("(= (total-cost) 0)")
    dom = "floortile-costs" if costs else "floortile"
    return (f"(define (problem floortile-{rows}x{cols}-{robots}) (:domain {dom})\n"
            f"  (:objects {' '.join(tiles)} - tile\n"
            f"    {' '.join(f'robot{k}' for k in range(robots))} - robot white black - color)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})){metric})\n")
