"""The memory budget: a search that would exhaust memory fails cleanly instead.

Each case runs the real CLI in a subprocess under an address-space limit
(``RLIMIT_AS``), set by a small launcher so no ``preexec_fn`` is needed. It must plan
or fail with a one-line message naming the budget: never a ``MemoryError``
traceback, never a hang (the timeout is a safety net, not a performance bound).
"""

from __future__ import annotations

import json
import mmap
import os
import subprocess
import sys
from pathlib import Path

import pytest

from goalkeeper.errors import PlanningError
from goalkeeper.planning import SearchLimits
from goalkeeper.planning.result import MEMORY_ENV, default_memory_mb
from goalkeeper.planning.search._common import MemoryBudget, _memory_now

from .hostile import chains

LAUNCH = (
    "import resource, runpy, sys; lim = int(sys.argv.pop(1)) * 2**20; "
    "resource.setrlimit(resource.RLIMIT_AS, (lim, lim)); sys.argv[0] = 'goalkeeper'; "
    "runpy.run_module('goalkeeper', run_name='__main__')"
)
needs_proc = pytest.mark.skipif(_memory_now() is None, reason="needs /proc/self/statm (Linux)")


def run_capped(tmp_path: Path, data: dict[str, object], cap_mb: int, *args: str,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(data), encoding="utf-8")
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(cap_mb), "plan", str(spec), "--json", *args],
        capture_output=True, text=True, env=full_env, stdin=subprocess.DEVNULL, timeout=300,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "MemoryError" not in proc.stderr
    return proc


@needs_proc
def test_ten_chains_of_500_plan_under_a_1gb_cap(tmp_path: Path) -> None:
    proc = run_capped(tmp_path, chains(10, 500), 1024)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] == "found" and out["cost"] == 5000


@needs_proc
@pytest.mark.parametrize("core", ["c", "python"])
def test_a_search_over_budget_stops_with_the_fix(tmp_path: Path, core: str) -> None:
    """Coupled chains do not split; blind search fills memory fast. With a 48 MB
    budget it must stop, name the budget and how to raise it, and exit 1."""
    from goalkeeper.planning.search.core import available

    if core == "c" and not available():
        pytest.skip("the compiled core is not built")
    proc = run_capped(tmp_path, chains(8, 40, coupled=True), 2048, "--heuristic", "blind",
                      env={MEMORY_ENV: "48", "GOALKEEPER_PLANNER_CORE": core})
    assert proc.returncode == 1
    assert "memory budget of 48 MB" in proc.stderr
    assert MEMORY_ENV in proc.stderr and "--search greedy" in proc.stderr


@pytest.mark.deep
@needs_proc
def test_an_address_space_limit_is_a_budget_too(tmp_path: Path) -> None:
    """No budget set: the process limit itself (ulimit -v) stops the search cleanly,
    by the budget's own check or by catching the MemoryError."""
    proc = run_capped(tmp_path, chains(8, 40, coupled=True), 400, "--heuristic", "blind",
                      env={MEMORY_ENV: "none"})
    assert proc.returncode == 1
    assert "planning stopped" in proc.stderr and "memory" in proc.stderr


def test_budget_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    assert SearchLimits().max_memory_mb == default_memory_mb() == 2048.0
    monkeypatch.setenv(MEMORY_ENV, "none")
    assert SearchLimits().max_memory_mb is None
    monkeypatch.setenv(MEMORY_ENV, "512")
    assert SearchLimits().max_memory_mb == 512.0
    monkeypatch.setenv(MEMORY_ENV, "lots")
    with pytest.raises(PlanningError, match=f"{MEMORY_ENV}='lots' is not a positive number"):
        SearchLimits()


@needs_proc
def test_budget_check_quotes_limit_and_value() -> None:
    budget = MemoryBudget(SearchLimits(max_memory_mb=1))
    budget.check()  # too soon: searches that end within MemoryBudget.EVERY never look
    assert budget.base is None
    budget.next = 0.0
    budget.check()  # the first look records the baseline
    assert budget.base is not None
    # fresh pages (a heap block could reuse memory that is resident already), touched
    # so they count as resident, not just mapped
    hog = mmap.mmap(-1, 32 * 2**20)
    for i in range(0, len(hog), 4096):
        hog[i] = 1
    budget.next = 0.0
    try:
        with pytest.raises(PlanningError, match=r"by \d+ MB, over its memory budget of 1 MB"):
            budget.check()
    finally:
        hog.close()
