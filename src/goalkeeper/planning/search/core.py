"""Which implementation runs the searches: the compiled core or pure Python.

Both give the same plans (tests run them side by side): breadth-first search, blind
and LM-cut A*, and greedy search with h_FF or h_add (other heuristics: Python). The compiled core
(``goalkeeper.planning._core``, built from ``_core.c`` when a C compiler is present at
install time) is 10-50x faster; pure Python is always there. The choice, per call:
the ``core`` argument of ``astar`` and ``greedy``, else the ``GOALKEEPER_PLANNER_CORE`` environment
variable (``auto``, ``c`` or ``python``), else ``auto``: compiled if built, except for
tasks so small that packing them for C costs more than searching them in Python.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..heuristics import INF
from ..result import SearchLimits, SearchOutcome
from ..task import Operator, Task
from . import stubborn
from ._common import MemoryBudget, group_successors, plan_cost

if TYPE_CHECKING:
    from ..heuristics.relaxed import Relaxed

__all__ = ["CORES", "Core", "PythonCore", "available", "default_core", "get_core"]

Steps = Generator[None, None, SearchOutcome]
ENV = "GOALKEEPER_PLANNER_CORE"
SMALL = 48  # operators; below this, auto picks Python (C packing costs more than search)


class Core(Protocol):
    name: str

    def bfs_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        layers: list[int] | None = None,
    ) -> Steps: ...

    def blind_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits
    ) -> Steps: ...

    def lmcut_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        fbound: list[float] | None = None, order: Sequence[int] | None = None,
    ) -> Steps: ...

    def lmcut_value(
        self, task: Task, ops: tuple[Operator, ...], state: int, order: Sequence[int] | None
    ) -> float: ...

    def prop_bits(self, task: Task, ops: tuple[Operator, ...]) -> list[int]: ...

    def greedy(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        heuristic: str,
    ) -> SearchOutcome: ...


_last_rx: list[Any] = [None, None, None]  # (task, ops, Relaxed): races reuse one relaxation


def relaxed_for(task: Task, ops: tuple[Operator, ...]) -> Relaxed:
    if _last_rx[0] is task and _last_rx[1] is ops:
        rx: Relaxed = _last_rx[2]
        return rx
    from ..heuristics.relaxed import build_relaxed

    rx = build_relaxed(task, ops)
    _last_rx[:] = [task, ops, rx]
    return rx


class PythonCore:
    name = "python"

    def bfs_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        layers: list[int] | None = None,
    ) -> Steps:
        from .astar import bfs_steps

        return bfs_steps(task, init, ops, limits, layers)

    def blind_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits
    ) -> Steps:
        from .astar import blind_steps

        return blind_steps(task, init, ops, limits)

    def lmcut_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        fbound: list[float] | None = None, order: Sequence[int] | None = None,
    ) -> Steps:
        from .lmcut_astar import lmcut_steps

        return lmcut_steps(task, init, ops, limits, fbound, order, relaxed_for(task, ops))

    def lmcut_value(
        self, task: Task, ops: tuple[Operator, ...], state: int, order: Sequence[int] | None
    ) -> float:
        from .lmcut_astar import lmcut_value_in

        return lmcut_value_in(relaxed_for(task, ops), state, order)

    def prop_bits(self, task: Task, ops: tuple[Operator, ...]) -> list[int]:
        return sorted(relaxed_for(task, ops).bit_prop)

    def greedy(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        heuristic: str,
    ) -> SearchOutcome:
        from .greedy import greedy_python

        return greedy_python(task, init, ops, limits, heuristic)


_BFS, _BLIND, _LMCUT, _GREEDY_FF, _GREEDY_ADD = 0, 1, 2, 3, 4
_GREEDY = {"ff": _GREEDY_FF, "hadd": _GREEDY_ADD}  # greedy heuristics the C core has
_NAMES = {_BFS: "blind", _BLIND: "blind", _LMCUT: "lmcut", _GREEDY_FF: "ff",
          _GREEDY_ADD: "hadd"}


def _ints(xs: Sequence[int]) -> bytes:
    from array import array

    return array("i", xs).tobytes()


def _doubles(xs: Sequence[float]) -> bytes:
    from array import array

    return array("d", xs).tobytes()


def pack(task: Task, ops: tuple[Operator, ...], ext: Any) -> Any:
    """The task and operators as flat arrays for the compiled core."""
    nbits = task.nbits
    W = max(1, (nbits + 63) // 64)
    nb = 8 * W
    order: list[Operator] = []
    gkey: list[int] = []
    gstart: list[int] = []
    by_index = {o.index: o for o in ops}
    for key, group in group_successors(ops):
        gstart.append(len(order))
        gkey.append(key.bit_length() - 1 if key > 0 and key & (key - 1) == 0 else -1)
        order.extend(by_index[g[4]] for g in group)
    gstart.append(len(order))
    pos = {o.index: i for i, o in enumerate(order)}
    eff_start = [0]
    eff_bits: list[int] = []
    pre_start = [0]
    pre_vars: list[int] = []
    for o in order:
        eff_bits.extend(o.eff_bits)
        eff_start.append(len(eff_bits))
        pre_vars.extend(o.pre_vars)
        pre_start.append(len(pre_vars))
    rx = relaxed_for(task, ops)
    rpre_start = [0]
    rpre: list[int] = []
    radd_start = [0]
    radd: list[int] = []
    for ps, ads in zip(rx.pre, rx.add, strict=True):
        rpre.extend(ps)
        rpre_start.append(len(rpre))
        radd.extend(ads)
        radd_start.append(len(radd))
    bit_prop = [-1] * nbits
    for b, p in rx.bit_prop.items():
        bit_prop[b] = p
    return ext.Task(
        W, nbits, len(task.offsets), len(order), len(gkey), len(task.goal_vars),
        b"".join(o.forbid.to_bytes(nb, "little") for o in order),
        b"".join(o.keep.to_bytes(nb, "little") for o in order),
        b"".join(o.add.to_bytes(nb, "little") for o in order),
        task.goal_forbid.to_bytes(nb, "little"),
        _doubles([o.cost for o in order]),
        _ints([o.index for o in order]),
        _ints(gkey), _ints(gstart),
        _ints(task.bit_var), _ints(task.offsets), _ints([len(d) for d in task.domains]),
        _ints(eff_start), _ints(eff_bits), _ints(pre_start), _ints(pre_vars),
        _ints(task.goal_vars),
        min((o.cost for o in ops), default=0.0),
        rx.nprops, rx.nops, rx.goal, rx.true, int(rx.integer_costs),
        _ints(rpre_start), _ints(rpre), _ints(radd_start), _ints(radd),
        _doubles(rx.cost),
        _ints([pos[k] if k >= 0 else -1 for k in rx.orig]),
        _ints(bit_prop),
    )


class CCore:
    name = "c"

    def __init__(self, ext: Any) -> None:
        self._ext = ext
        self._last: list[Any] = [None, None, None]  # (task, ops, packed)

    def _packed(self, task: Task, ops: tuple[Operator, ...]) -> Any:
        if self._last[0] is task and self._last[1] is ops:
            return self._last[2]
        packed = pack(task, ops, self._ext)
        self._last[:] = [task, ops, packed]
        return packed

    def _order(self, task: Task, ops: tuple[Operator, ...], order: Sequence[int] | None) -> bytes:
        return _ints(self.prop_bits(task, ops) if order is None else order)

    def prop_bits(self, task: Task, ops: tuple[Operator, ...]) -> list[int]:
        return sorted(relaxed_for(task, ops).bit_prop)

    def lmcut_value(
        self, task: Task, ops: tuple[Operator, ...], state: int, order: Sequence[int] | None
    ) -> float:
        nb = 8 * max(1, (task.nbits + 63) // 64)
        search = self._ext.Search(self._packed(task, ops), _LMCUT, state.to_bytes(nb, "little"),
                                  0, -1.0, -1, self._order(task, ops, order))
        h: float = search.h0
        return h

    def _steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        kind: int, layers: list[int] | None = None, fbound: list[float] | None = None,
        order: Sequence[int] | None = None,
    ) -> Steps:
        ext = self._ext
        packed = self._packed(task, ops)
        nb = 8 * max(1, (task.nbits + 63) // 64)
        deadline = -1.0 if limits.max_seconds is None else time.perf_counter() + limits.max_seconds
        max_exp = -1 if limits.max_expansions is None else limits.max_expansions
        greedy = kind in (_GREEDY_FF, _GREEDY_ADD)
        search = ext.Search(packed, kind, init.to_bytes(nb, "little"), max_exp, deadline,
                            -1 if greedy else stubborn.START, self._order(task, ops, order))
        name = _NAMES[kind]
        chunk = 16 if kind == _LMCUT else 64 if greedy else 1024
        clock = time.perf_counter
        memory = MemoryBudget(limits)
        while True:
            t0 = clock()
            out = search.run(chunk)
            dt = clock() - t0
            memory.check()
            if layers is not None and search.nlayers != len(layers):
                layers[:] = search.layers()
            if fbound is not None:
                fbound[0] = search.fbound
            if out is not None:
                status, plan, cost, expanded, generated = out
                if status == "found":
                    if kind == _BFS or greedy:
                        cost = plan_cost(task, plan)
                    return SearchOutcome(plan, cost, expanded, generated, True, name)
                return SearchOutcome(None, INF, expanded, generated, status == "exhausted", name)
            # about a millisecond per step, so that a race interleaves finely
            if dt < 0.0005:
                chunk *= 2
            elif dt > 0.004 and chunk > 1:
                chunk //= 2
            yield

    def bfs_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        layers: list[int] | None = None,
    ) -> Steps:
        return self._steps(task, init, ops, limits, _BFS, layers=layers)

    def blind_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits
    ) -> Steps:
        return self._steps(task, init, ops, limits, _BLIND)

    def lmcut_steps(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        fbound: list[float] | None = None, order: Sequence[int] | None = None,
    ) -> Steps:
        return self._steps(task, init, ops, limits, _LMCUT, fbound=fbound, order=order)

    def greedy(
        self, task: Task, init: int, ops: tuple[Operator, ...], limits: SearchLimits,
        heuristic: str,
    ) -> SearchOutcome:
        kind = _GREEDY.get(heuristic)
        if kind is None:
            return _PY.greedy(task, init, ops, limits, heuristic)
        from .astar import drain

        return drain(self._steps(task, init, ops, limits, kind))


_PY = PythonCore()
_C: CCore | None = None
_TRIED = False


def _compiled() -> CCore | None:
    global _C, _TRIED
    if not _TRIED:
        _TRIED = True
        try:
            from .. import _core  # type: ignore[attr-defined]
        except ImportError:
            _C = None
        else:
            _C = CCore(_core)
    return _C


def available() -> bool:
    """Whether the compiled core was built and imports."""
    return _compiled() is not None


CORES = ("auto", "c", "python")


def default_core() -> str:
    return os.environ.get(ENV, "auto").strip().lower() or "auto"


def get_core(name: str | None, ops: Sequence[Operator] = ()) -> Core:
    """The implementation for ``name`` ("auto", "c", "python"; None: the default)."""
    choice = name or default_core()
    if choice not in CORES:
        from ...errors import PlanningError

        raise PlanningError(
            f"unknown planner core {choice!r} (from {'the core argument' if name else ENV}); "
            f"choose one of: {', '.join(CORES)}"
        )
    if choice == "python" or (choice == "auto" and len(ops) < SMALL):
        return _PY  # small tasks: no need to even import the extension
    c = _compiled()
    if choice == "c":
        if c is None:
            from ...errors import PlanningError

            raise PlanningError(
                "the compiled planner core is not built; reinstall with a C compiler "
                "present (`pip install -e .`), or use the pure-Python core "
                f"({ENV}=python)"
            )
        return c
    return _PY if c is None else c
