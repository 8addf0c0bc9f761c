"""Engines: who carries out the pure decisions. ``local`` (the default) or ``temporal`` (scale-out).

The decision code (``convergence.decide``, ``runtime.decide``) is the same on
every engine; an engine only differs in where state lives and who runs the
side effects. Engines are an explicit registry, like makers and oracles::

    engine = get_engine("temporal")          # raises MissingExtraError without temporalio
    engine.run_goal("goal-abcd1234", options)

``local`` runs the existing drivers in this process. ``temporal`` submits
workflows to a Temporal cluster; ``goalkeeper worker`` processes run them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError, MissingExtraError
from .base import Engine

__all__ = ["ENGINES", "Engine", "EngineInfo", "engine_names", "get_engine", "make_engine", "register_engine"]


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """A registered engine: ``module`` is imported only when the engine is used."""

    name: str
    module: str
    description: str


ENGINES: dict[str, EngineInfo] = {}


def register_engine(name: str, module: str, description: str) -> None:
    """Make ``--engine NAME`` resolve to ``module`` (imported lazily)."""
    ENGINES[name] = EngineInfo(name, module, description)


def engine_names() -> list[str]:
    return list(ENGINES)


def get_engine(name: str) -> Any:
    """The engine's module; an optional dependency that is missing raises MissingExtraError."""
    info = ENGINES.get(name)
    if info is None:
        raise ConfigError(f"unknown engine {name!r} (known: {', '.join(ENGINES)})")
    loader: Callable[[str], Any] = importlib.import_module
    try:
        return loader(info.module)
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] == "temporalio":
            raise MissingExtraError("temporalio", "temporal") from None
        raise


def make_engine(name: str = "local", *, root: Any = None, **config: Any) -> Engine:
    """An :class:`Engine`: ``local``, or ``temporal`` with its connection settings (address, namespace, ...)."""
    if name == "local":
        from .local import LocalEngine

        return LocalEngine(root=root)
    mod = get_engine(name)
    if name == "temporal":
        from .temporal.config import load_config
        from .temporal.engine import TemporalEngine

        return TemporalEngine(load_config({k: v for k, v in config.items() if v is not None}), root=root)
    factory = getattr(mod, "make_engine", None)
    if factory is None:
        raise ConfigError(f"engine {name!r} does not provide make_engine()")
    engine: Engine = factory(root=root, **config)
    return engine


register_engine("local", "goalkeeper.engines.local", "this process, state in $GOALKEEPER_HOME (default)")
register_engine("temporal", "goalkeeper.engines.temporal", "Temporal workflows run by `goalkeeper worker`")
