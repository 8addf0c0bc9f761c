"""Generators for IPC-style domains that are not in the shared benchmarks.

They check that the default search (the blind/LM-cut race, stubborn sets, the
independent-parts split) picks nothing pathological on domains it was never tuned
on. Each writes ``DIR/<domain>/domain.pddl`` and ``taskNN.pddl`` (numbered by size),
the layout ``bench_planners.py`` reads, so Fast Downward runs on them side by side:

    python benchmarks/unseen.py /tmp/unseen
    GOALKEEPER_PDDL=/tmp/unseen python benchmarks/bench_planners.py --no-pyperplan --goap 0

- ``visitall``: a robot on an n x n grid must visit every cell (IPC 2011 shape).
- ``childsnack``: make sandwiches (gluten-free ones for allergic children), put them
  on trays, move trays, serve (IPC 2014 shape; interchangeable objects, many
  symmetric states).
- ``satellite``: satellites turn, power instruments, calibrate and take images
  (IPC 2002 STRIPS shape; several nearly independent satellites).

The domain files are written here from the domains' published descriptions.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

VISITALL = """(define (domain visitall)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (connected ?x ?y - place) (at-robot ?x - place) (visited ?x - place))
  (:action move
    :parameters (?from ?to - place)
    :precondition (and (at-robot ?from) (connected ?from ?to))
    :effect (and (at-robot ?to) (not (at-robot ?from)) (visited ?to))))
"""


def visitall(n: int, frac: float, seed: int) -> str:
    rng = random.Random(seed)
    cells = [f"c{x}-{y}" for x in range(n) for y in range(n)]
    conn = []
    for x in range(n):
        for y in range(n):
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= x + dx < n and 0 <= y + dy < n:
                    conn.append(f"(connected c{x}-{y} c{x + dx}-{y + dy})")
    goal = [c for c in cells if c == "c0-0" or rng.random() < frac]
    return (f"(define (problem visitall-{n}) (:domain visitall)\n"
            f"  (:objects {' '.join(cells)} - place)\n"
            f"  (:init (at-robot c0-0) (visited c0-0) {' '.join(conn)})\n"
            f"  (:goal (and {' '.join(f'(visited {c})' for c in goal)})))\n")


CHILDSNACK = """(define (domain child-snack)
  (:requirements :strips :typing)
  (:types child bread-portion content-portion sandwich tray place)
  (:constants kitchen - place)
  (:predicates (at_kitchen_bread ?b - bread-portion) (at_kitchen_content ?c - content-portion)
    (at_kitchen_sandwich ?s - sandwich) (no_gluten_bread ?b - bread-portion)
    (no_gluten_content ?c - content-portion) (ontray ?s - sandwich ?t - tray)
    (no_gluten_sandwich ?s - sandwich) (allergic_gluten ?c - child)
    (not_allergic_gluten ?c - child) (served ?c - child) (waiting ?c - child ?p - place)
    (at ?t - tray ?p - place) (notexist ?s - sandwich))
  (:action make_sandwich_no_gluten
    :parameters (?s - sandwich ?b - bread-portion ?c - content-portion)
    :precondition (and (at_kitchen_bread ?b) (at_kitchen_content ?c) (no_gluten_bread ?b)
                       (no_gluten_content ?c) (notexist ?s))
    :effect (and (not (at_kitchen_bread ?b)) (not (at_kitchen_content ?c))
                 (at_kitchen_sandwich ?s) (no_gluten_sandwich ?s) (not (notexist ?s))))
  (:action make_sandwich
    :parameters (?s - sandwich ?b - bread-portion ?c - content-portion)
    :precondition (and (at_kitchen_bread ?b) (at_kitchen_content ?c) (notexist ?s))
    :effect (and (not (at_kitchen_bread ?b)) (not (at_kitchen_content ?c))
                 (at_kitchen_sandwich ?s) (not (notexist ?s))))
  (:action put_on_tray
    :parameters (?s - sandwich ?t - tray)
    :precondition (and (at_kitchen_sandwich ?s) (at ?t kitchen))
    :effect (and (not (at_kitchen_sandwich ?s)) (ontray ?s ?t)))
  (:action serve_sandwich_no_gluten
    :parameters (?s - sandwich ?c - child ?t - tray ?p - place)
    :precondition (and (allergic_gluten ?c) (ontray ?s ?t) (waiting ?c ?p)
                       (no_gluten_sandwich ?s) (at ?t ?p))
    :effect (and (not (ontray ?s ?t)) (served ?c)))
  (:action serve_sandwich
    :parameters (?s - sandwich ?c - child ?t - tray ?p - place)
    :precondition (and (not_allergic_gluten ?c) (waiting ?c ?p) (ontray ?s ?t) (at ?t ?p))
    :effect (and (not (ontray ?s ?t)) (served ?c)))
  (:action move_tray
    :parameters (?t - tray ?p1 ?p2 - place)
    :precondition (at ?t ?p1)
    :effect (and (not (at ?t ?p1)) (at ?t ?p2))))
"""


def childsnack(children: int, trays: int, tables: int, seed: int) -> str:
    rng = random.Random(seed)
    kids = [f"child{i}" for i in range(children)]
    allergic = set(rng.sample(kids, max(1, children * 2 // 5)))
    nb = children + 1
    breads = [f"bread{i}" for i in range(nb)]
    contents = [f"content{i}" for i in range(nb)]
    sandw = [f"sandw{i}" for i in range(nb)]
    tbls = [f"table{i}" for i in range(tables)]
    trs = [f"tray{i}" for i in range(trays)]
    ng = len(allergic)
    init = [f"(at_kitchen_bread {b})" for b in breads]
    init += [f"(at_kitchen_content {c})" for c in contents]
    init += [f"(no_gluten_bread {b})" for b in rng.sample(breads, ng)]
    init += [f"(no_gluten_content {c})" for c in rng.sample(contents, ng)]
    init += [f"(at {t} kitchen)" for t in trs]
    init += [f"(notexist {s})" for s in sandw]
    for k in kids:
        init.append(f"({'allergic_gluten' if k in allergic else 'not_allergic_gluten'} {k})")
        init.append(f"(waiting {k} {rng.choice(tbls)})")
    return (f"(define (problem childsnack-{children}) (:domain child-snack)\n"
            f"  (:objects {' '.join(kids)} - child {' '.join(breads)} - bread-portion\n"
            f"    {' '.join(contents)} - content-portion {' '.join(trs)} - tray\n"
            f"    {' '.join(tbls)} - place {' '.join(sandw)} - sandwich)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(f'(served {k})' for k in kids)})))\n")


SATELLITE = """(define (domain satellite)
  (:requirements :strips :typing)
  (:types satellite direction instrument mode)
  (:predicates (on_board ?i - instrument ?s - satellite) (supports ?i - instrument ?m - mode)
    (pointing ?s - satellite ?d - direction) (power_avail ?s - satellite)
    (power_on ?i - instrument) (calibrated ?i - instrument)
    (have_image ?d - direction ?m - mode) (calibration_target ?i - instrument ?d - direction))
  (:action turn_to
    :parameters (?s - satellite ?d_new - direction ?d_prev - direction)
    :precondition (pointing ?s ?d_prev)
    :effect (and (pointing ?s ?d_new) (not (pointing ?s ?d_prev))))
  (:action switch_on
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on_board ?i ?s) (power_avail ?s))
    :effect (and (power_on ?i) (not (calibrated ?i)) (not (power_avail ?s))))
  (:action switch_off
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on_board ?i ?s) (power_on ?i))
    :effect (and (not (power_on ?i)) (power_avail ?s)))
  (:action calibrate
    :parameters (?s - satellite ?i - instrument ?d - direction)
    :precondition (and (on_board ?i ?s) (calibration_target ?i ?d) (pointing ?s ?d)
                       (power_on ?i))
    :effect (calibrated ?i))
  (:action take_image
    :parameters (?s - satellite ?d - direction ?i - instrument ?m - mode)
    :precondition (and (calibrated ?i) (on_board ?i ?s) (supports ?i ?m) (power_on ?i)
                       (pointing ?s ?d))
    :effect (have_image ?d ?m)))
"""


def satellite(sats: int, dirs: int, images: int, seed: int) -> str:
    rng = random.Random(seed)
    ss = [f"sat{i}" for i in range(sats)]
    ds = [f"dir{i}" for i in range(dirs)]
    modes = ["thermo", "image", "spectro"]
    insts = []
    init = []
    for s in ss:
        init += [f"(power_avail {s})", f"(pointing {s} {rng.choice(ds)})"]
        for k in range(rng.randint(1, 2)):
            i = f"inst-{s}-{k}"
            insts.append(i)
            init += [f"(on_board {i} {s})", f"(calibration_target {i} {rng.choice(ds)})"]
            init += [f"(supports {i} {m})" for m in rng.sample(modes, rng.randint(1, 2))]
    goal = set()
    while len(goal) < images:
        goal.add(f"(have_image {rng.choice(ds)} {rng.choice(modes)})")
    supported = {m for line in init if line.startswith("(supports") for m in [line.split()[2][:-1]]}
    goal = {g for g in goal if g.split()[2][:-1] in supported}
    return (f"(define (problem satellite-{sats}-{images}) (:domain satellite)\n"
            f"  (:objects {' '.join(ss)} - satellite {' '.join(ds)} - direction\n"
            f"    {' '.join(insts)} - instrument {' '.join(modes)} - mode)\n"
            f"  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(sorted(goal))})))\n")


def write_all(out: Path) -> None:
    sets = {
        "visitall": (VISITALL, [visitall(n, f, s) for s, (n, f) in enumerate(
            [(3, 1.0), (4, 0.5), (4, 1.0), (5, 0.5), (5, 0.8), (6, 0.5)])]),
        "childsnack": (CHILDSNACK, [childsnack(c, t, tb, s) for s, (c, t, tb) in enumerate(
            [(3, 1, 2), (4, 2, 2), (5, 2, 3), (6, 2, 3), (7, 3, 3), (8, 3, 4)])]),
        "satellite": (SATELLITE, [satellite(a, d, i, s) for s, (a, d, i) in enumerate(
            [(1, 4, 3), (2, 5, 4), (2, 6, 6), (3, 6, 7), (3, 8, 9), (4, 8, 10)])]),
    }
    for name, (domain, tasks) in sets.items():
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "domain.pddl").write_text(domain)
        for k, text in enumerate(tasks, 1):
            (d / f"task{k:02d}.pddl").write_text(text)


if __name__ == "__main__":
    write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "unseen"))
