"""The local engine: the existing drivers, in this process, state under ``$GOALKEEPER_HOME``.

It exists so that code can pick an engine by name; the CLI keeps calling the
drivers directly when ``--engine`` is ``local``.
"""

from __future__ import annotations

from ..convergence.loop import run_goal
from ..runtime.driver import RunOptions, resume_run, start_run

__all__ = ["RunOptions", "resume_run", "run_goal", "start_run"]
