"""Self-contained HTML reports of goals and runs (no network: CSS and SVG charts are inline)."""

from __future__ import annotations

from .goal import DiffStat, goal_report, phase_times, render_goal
from .run import render_run, run_report

__all__ = ["DiffStat", "goal_report", "phase_times", "render_goal", "render_run", "run_report"]
