"""Who is running commands right now, and under what rules: a context the runner consults.

The goal loop wraps a maker call in :func:`policy` so every command the maker
starts, through whichever adapter, is contained strictly, tagged with the
goal's owner id, sandboxed when asked, and does not inherit goalkeeper's own
variables (``GOALKEEPER_HOME`` would show the maker where the state lives).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

from .sandbox import Sandbox

__all__ = ["Policy", "current_policy", "policy"]


@dataclass(frozen=True, slots=True)
class Policy:
    owner: str | None = None
    strict: bool = False
    sandbox: Sandbox | None = None
    drop_env_prefixes: tuple[str, ...] = ()
    keep_env: tuple[str, ...] = ()


_CURRENT: contextvars.ContextVar[Policy | None] = contextvars.ContextVar("goalkeeper_proc_policy", default=None)


def current_policy() -> Policy | None:
    return _CURRENT.get()


@contextlib.contextmanager
def policy(p: Policy) -> Iterator[Policy]:
    token = _CURRENT.set(p)
    try:
        yield p
    finally:
        _CURRENT.reset(token)
