"""Processes: the one runner every command goes through, containment and the sandbox.

This package sits at the bottom of goalkeeper's layers (it imports nothing of
goalkeeper), so runtime, convergence, adapters and engines all share it.
"""

from ._contain import bwrap_path, containment_mode
from ._leftovers import end_leftovers, find_leftovers
from ._policy import Policy, current_policy, policy
from ._runner import (
    DEFAULT_GRACE,
    MAX_OUTPUT,
    ProcResult,
    Runner,
    resolve_argv,
    run_argv,
    spawn_problem,
    split_command,
)
from .sandbox import Sandbox

__all__ = [
    "DEFAULT_GRACE",
    "MAX_OUTPUT",
    "Policy",
    "ProcResult",
    "Runner",
    "Sandbox",
    "bwrap_path",
    "containment_mode",
    "current_policy",
    "end_leftovers",
    "find_leftovers",
    "policy",
    "resolve_argv",
    "run_argv",
    "spawn_problem",
    "split_command",
]
