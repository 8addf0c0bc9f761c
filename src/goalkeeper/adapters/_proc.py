"""Moved: the process runner lives in :mod:`goalkeeper.proc` (below every package)."""

from ..proc import ProcResult, Runner, resolve_argv, run_argv, split_command

__all__ = ["ProcResult", "Runner", "resolve_argv", "run_argv", "split_command"]
