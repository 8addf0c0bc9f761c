"""The provider registry: built-ins register through the same decorator third parties use.

Third-party packages can also expose a factory under the entry-point group
``goalkeeper.llm_providers``; it is loaded the first time its name is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any, TypeVar

from ..errors import ConfigError
from ._options import Option, coerce_options, declare_options
from ._types import Provider

__all__ = ["ENTRY_POINT_GROUP", "PROVIDERS", "ProviderFactory", "get_provider", "register_provider"]

ENTRY_POINT_GROUP = "goalkeeper.llm_providers"
ProviderFactory = Callable[..., Provider]
PROVIDERS: dict[str, ProviderFactory] = {}
F = TypeVar("F", bound=ProviderFactory)


def register_provider(name: str, *, options: Mapping[str, Option] | None = None) -> Callable[[F], F]:
    """Decorator: ``get_provider(name, **config)`` will call the decorated factory with ``config``.

    ``options`` declares the settings ``config`` may hold and their types; values are then
    converted and checked (``"0"`` becomes ``0`` for an int) before the factory sees them.
    """

    def deco(factory: F) -> F:
        PROVIDERS[name] = factory
        if options is not None:
            declare_options(name, options)
        return factory

    return deco


def _from_entry_points(name: str) -> ProviderFactory | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            factory: ProviderFactory = ep.load()
            PROVIDERS[name] = factory
            return factory
    return None


def get_provider(name: str = "openai", **config: Any) -> Provider:
    """A configured provider; unknown names list the known ones."""
    factory = PROVIDERS.get(name) or _from_entry_points(name)
    if factory is None:
        known = ", ".join(sorted(PROVIDERS))
        raise ConfigError(
            f"LLM provider {name!r} is not registered (known: {known}); "
            f"register one with @goalkeeper.llm.register_provider({name!r}) "
            f"or the {ENTRY_POINT_GROUP!r} entry point"
        )
    return factory(**coerce_options(name, config, where=f"{name} provider option"))

