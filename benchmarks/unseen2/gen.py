"""Write the unseen2 domains: ``python benchmarks/unseen2/gen.py [DIR]``.

Default DIR is ``benchmarks/unseen2/pddl``: ``DIR/<domain>/domain.pddl`` and
``taskNN.pddl`` numbered by size, the layout ``bench_planners.py`` and ``run.py``
read. Fixed seeds, so the files are the same on every machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_features as gf  # noqa: E402
import gen_more as gm  # noqa: E402
import gen_strips as gs  # noqa: E402

Sizes = list[tuple[float, ...]]


def _set(domain: str, fn: Callable[..., str], sizes: Sizes, **kw: object) -> tuple[str, list[str]]:
    return domain, [fn(*size, seed, **kw) for seed, size in enumerate(sizes)]


# Per domain: the domain text and the problem texts (sizes grow; seeds are the index).
PERF = {  # STRIPS + typing: what the performance table measures
    "nomystery": _set(gs.NOMYSTERY, gs.nomystery,
                      [(4, 2, 1.0), (5, 3, 1.0), (6, 3, 1.0), (6, 4, 1.0), (7, 4, 1.0),
                       (7, 5, 1.0), (8, 5, 1.0), (8, 6, 1.0), (9, 6, 1.0), (10, 7, 1.0)]),
    "parking": _set(gs.PARKING, gs.parking,
                    [(3, 3), (4, 4), (4, 5), (5, 6), (5, 7), (6, 8), (6, 9), (7, 10), (7, 11),
                     (8, 12)]),
    "spanner": _set(gs.SPANNER, gs.spanner,
                    [(3, 2, 2), (4, 3, 2), (5, 3, 3), (6, 4, 3), (6, 5, 4), (8, 6, 5),
                     (10, 7, 6), (12, 8, 7)]),
    "floortile": _set(gs.floortile_domain(False), gs.floortile,
                      [(2, 2, 1), (2, 3, 1), (3, 2, 1), (3, 3, 1), (3, 3, 2), (2, 4, 2),
                       (3, 4, 1), (4, 3, 1)]),
    "elevators": _set(gm.elevators_domain(False), gm.elevators,
                      [(4, 2, 2), (4, 2, 3), (6, 3, 3), (6, 3, 4), (8, 4, 4), (8, 4, 5),
                       (8, 4, 6), (10, 5, 6)]),
    "driverlog": _set(gm.DRIVERLOG, gm.driverlog,
                      [(3, 1, 1, 2), (4, 2, 1, 2), (4, 2, 2, 3), (5, 2, 2, 3), (5, 2, 2, 4),
                       (6, 2, 2, 4), (6, 3, 2, 5), (7, 3, 3, 5)]),
    "zenotravel": _set(gm.ZENOTRAVEL, gm.zenotravel,
                       [(3, 1, 2), (3, 1, 3), (4, 2, 3), (4, 2, 4), (5, 2, 5), (5, 2, 6),
                        (6, 3, 6), (6, 3, 7)]),
}

FEATURES = {  # one construct beyond STRIPS + typing each
    "briefcase": _set(gf.BRIEFCASE, gf.briefcase, [(3, 2), (4, 3), (5, 4)]),
    "switches": _set(gf.SWITCHES, gf.switches, [(4,), (6,), (8,)]),
    "blocks-eq": _set(gf.BLOCKS_EQ, gf.blocks_eq, [(4,), (6,), (8,)]),
    "gripper-either": _set(gf.GRIPPER_EITHER, gf.gripper_either, [(2, 2), (4, 3), (6, 3)]),
    "keys": _set(gf.KEYS, gf.keys, [(2,), (4,), (6,)]),
    "hierarchy": _set(gf.HIERARCHY, gf.hierarchy, [(3, 2), (5, 3), (7, 5)]),
    "floortile-costs": _set(gs.floortile_domain(True), gs.floortile,
                            [(2, 2, 1), (2, 3, 1), (3, 3, 1), (3, 3, 2), (2, 4, 2), (3, 4, 1)],
                            costs=True),
    "elevators-costs": _set(gm.elevators_domain(True), gm.elevators,
                            [(4, 2, 2), (4, 2, 3), (6, 3, 3), (6, 3, 4), (8, 4, 4), (8, 4, 5)],
                            costs=True),
}


def write_all(out: Path) -> None:
    for name, (domain, tasks) in {**PERF, **FEATURES}.items():
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        for old in d.glob("task*.pddl"):
            old.unlink()
        (d / "domain.pddl").write_text(domain)
        for k, text in enumerate(tasks, 1):
            (d / f"task{k:02d}.pddl").write_text(text)


if __name__ == "__main__":
    write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "pddl")
