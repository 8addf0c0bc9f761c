"""Run Fast Downward's A* + LM-cut on one task (from the up-fast-downward wheel).

The wheel ships the driver script and a prebuilt search binary; it is found without
importing the package (which would need unified-planning). Fast Downward's own
"Search time" is reported: CPU time of the search, without translation and
preprocessing, comparable to our in-process CPU time.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_report import Run

__all__ = ["fd_script", "run_fd"]


def fd_script() -> Path | None:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "downward" / "fast-downward.py"
    return path if path.exists() else None


def run_fd(script: Path, domain: Path, problem: Path, timeout: float) -> Run:
    cmd = [sys.executable, str(script), str(domain), str(problem), "--search", "astar(lmcut())"]
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        # The driver starts the search binary as a child: on a timeout the whole
        # process group goes, or the binary would run on, orphaned, eating a core.
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, cwd=tmp, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return Run(None, None, None, f"> {timeout:g} s")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        wall = time.perf_counter() - t0
    m_cost = re.search(r"Plan cost: ([\d.]+)", out)
    m_search = re.search(r"Search time: ([\d.]+)s", out)
    m_exp = re.findall(r"Expanded (\d+) state", out)
    if not m_cost or not m_search:
        return Run(None, None, None, "no plan")
    return Run(float(m_search.group(1)), float(m_cost.group(1)),
               int(m_exp[-1]) if m_exp else None, f"wall {wall:.2f} s")
