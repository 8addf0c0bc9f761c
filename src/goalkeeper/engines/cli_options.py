"""``--engine local|temporal`` plus where Temporal is, as one click decorator shared by commands.

The decorated command receives ``engine: EngineChoice`` instead of four loose
flags; ``EngineChoice.temporal()`` merges them with env vars and the config file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import click

from . import engine_names

if TYPE_CHECKING:
    from .base import Engine
    from .temporal.config import TemporalConfig

__all__ = ["EngineChoice", "engine_options"]

F = TypeVar("F", bound=Callable[..., Any])
_FLAGS = ("address", "namespace", "task_queue")


@dataclass(frozen=True, slots=True)
class EngineChoice:
    name: str = "local"
    flags: dict[str, Any] = field(default_factory=dict)

    @property
    def is_local(self) -> bool:
        return self.name == "local"

    def temporal(self) -> TemporalConfig:
        from .temporal.config import load_config

        return load_config(self.flags)

    def engine(self) -> Engine:
        """The chosen engine behind the one contract the CLI talks to."""
        from . import make_engine

        return make_engine(self.name, **self.flags)


def engine_options(fn: F) -> F:
    """Add --engine, --address, --namespace and --task-queue to a click command."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = kwargs.pop("engine", None)
        flags = {k: kwargs.pop(k, None) for k in _FLAGS}
        choice = given if isinstance(given, EngineChoice) else EngineChoice(given or "local", flags)
        return fn(*args, engine=choice, **kwargs)

    opts = [
        click.option("--engine", type=click.Choice(engine_names()), default=None, envvar="GOALKEEPER_ENGINE",
                     help="Where the work runs: local (default) or temporal (needs `goalkeeper worker`)."),
        click.option("--address", default=None, metavar="HOST:PORT",
                     help="Temporal frontend (env GOALKEEPER_TEMPORAL_ADDRESS; default 127.0.0.1:7233)."),
        click.option("--namespace", default=None, help="Temporal namespace (default: default)."),
        click.option("--task-queue", "task_queue", default=None,
                     help="Task queue the workers poll (default: goalkeeper)."),
    ]
    out: Any = wrapper
    for opt in reversed(opts):
        out = opt(out)
    return out  # type: ignore[no-any-return]
