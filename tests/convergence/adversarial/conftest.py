"""Scenarios run in parallel, then each test reads its own outcome.

A scenario is mostly waiting on subprocesses (goalkeeper, pytest, ruff), so the
session runs the scenarios of every collected test on a small thread pool as
soon as the first one is asked for; each test then waits for its own. With
``-k`` only the selected scenarios run. ``REDTEAM_WORKERS`` sets the pool size
(default: the number of CPUs); ``REDTEAM_TIMES=1`` prints each scenario's time;
``REDTEAM_KEEP=1`` keeps the scenario directories.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from .harness import DEFECTS, Cheat, Outcome, scenario

# the makers are scripts run by goalkeeper, never test modules (some names end in _test.py)
collect_ignore = ["makers"]


class Campaign:
    def __init__(self, base: Path, workers: int) -> None:
        self.base = base
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="redteam")
        self.futures: dict[Cheat, Future[Outcome]] = {}
        self.started = time.monotonic()

    def submit(self, case: Cheat) -> Future[Outcome]:
        if case not in self.futures:
            slot = Path(tempfile.mkdtemp(prefix=case.maker.replace("/", "-").removesuffix(".py") + "-",
                                         dir=self.base))
            check = frozenset(DEFECTS) if case.invariant_only or not case.leaves else case.leaves
            self.futures[case] = self.pool.submit(scenario, slot, case.maker, case.setup, check)
        return self.futures[case]

    def outcome(self, case: Cheat) -> Outcome:
        return self.submit(case).result()


_CAMPAIGNS: list[Campaign] = []


def _base_dir(factory: pytest.TempPathFactory) -> Path:
    """Where the scenarios live: not under /tmp if we can help it, because a maker sandbox
    may hide /tmp, and a user's venv (the scenario's toolchain) is not in /tmp either.
    ``REDTEAM_BASE`` overrides."""
    for cand in (os.environ.get("REDTEAM_BASE"), "/var/tmp"):
        if cand and os.path.isdir(cand) and os.access(cand, os.W_OK):
            return Path(tempfile.mkdtemp(prefix="goalkeeper-redteam-", dir=cand))
    return factory.mktemp("redteam")


@pytest.fixture(scope="session")
def campaign(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Campaign]:
    missing = [m for m in ("coverage", "pytest_cov") if importlib.util.find_spec(m) is None]
    if missing:  # without them every check fails, and every cheat would "lose" for nothing
        pytest.fail(f"the adversarial suite needs {', '.join(missing)}: pip install -e '.[dev]' "
                    "with coverage and pytest-cov in the dev extra", pytrace=False)
    # Under pytest-xdist every worker collects every item but runs only its share: there the
    # scenarios run as their tests ask for them (xdist is the parallelism); alone, they all start
    # at once on a thread pool, in collection order.
    xdist = bool(os.environ.get("PYTEST_XDIST_WORKER"))
    workers = 1 if xdist else int(os.environ.get("REDTEAM_WORKERS") or os.cpu_count() or 2)
    base = _base_dir(tmp_path_factory)
    c = Campaign(base, workers)
    _CAMPAIGNS.append(c)
    for item in [] if xdist else request.session.items:
        case = getattr(item, "callspec", None) and item.callspec.params.get("case")
        if isinstance(case, Cheat) and item.get_closest_marker("skip") is None:
            c.submit(case)
    yield c
    c.pool.shutdown(wait=True, cancel_futures=True)
    if not os.environ.get("REDTEAM_KEEP"):
        shutil.rmtree(base, ignore_errors=True)


SMOKE = 1  # cases per test in the README's suite, from the SMOKE_FILES only (the deep tier runs them all)
# Whole goal runs are the suite's costliest tests: the README's suite keeps the honest maker, the
# classic forged output, the toolchain and the newest round; each guard of the other classes has a
# fast in-process test (tests/convergence/test_sealed.py, test_scan.py, test_protect.py, ...).
SMOKE_FILES = frozenset({"test_honest.py", "test_forge.py", "test_toolchain.py", "test_round6.py"})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a redteam variant left out unless REDTEAM_ALL=1 or -m slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow variants run only when asked for, so the default suite stays within its time."""
    if os.environ.get("REDTEAM_ALL") or "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow redteam variant: REDTEAM_ALL=1 (or -m slow) runs it")
    here = Path(__file__).resolve().parent
    ours = [i for i in items if Path(str(i.path)).resolve().is_relative_to(here)]  # the hook sees every item
    for item in ours:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
    if os.environ.get("GOALKEEPER_DEEP") or "deep" in (config.option.markexpr or ""):
        return
    # The README's suite runs the first SMOKE cases of the SMOKE_FILES;
    # the whole default set runs in the deep tier (`.ci/run`), the slow variants with REDTEAM_ALL=1.
    campaign = pytest.mark.skip(reason="red-team campaign: .ci/run's deep tier runs every case (GOALKEEPER_DEEP=1)")
    seen: dict[tuple[str, str], int] = {}
    for item in ours:
        if item.get_closest_marker("slow") is not None:
            continue
        key = (str(item.path), getattr(item, "originalname", item.name))
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > SMOKE or Path(str(item.path)).name not in SMOKE_FILES:
            item.add_marker(pytest.mark.deep)
            item.add_marker(campaign)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not os.environ.get("REDTEAM_TIMES"):
        return
    for c in _CAMPAIGNS:
        done = [(f.result().seconds, case.id) for case, f in c.futures.items()
                if f.done() and not f.exception()]
        total = sum(s for s, _ in done)
        terminalreporter.write_line(
            f"redteam: {len(done)} scenarios, {total:.1f}s summed over {c.workers} workers")
        for seconds, name in sorted(done, reverse=True)[:15]:
            terminalreporter.write_line(f"  {seconds:6.2f}s  {name}")
