"""Configuration-file defaults for a command's options (see :mod:`goalkeeper.config`).

:func:`with_goal_defaults` wraps ``goal new``: an option the user did not type
takes its value from the config files (``[tool.goalkeeper.goal]`` in the
workspace's pyproject.toml, then ``[goal]`` in ``$GOALKEEPER_HOME/config.toml``);
an option typed on the command line always wins. ``KEY=VALUE`` options merge:
the files' pairs come first, so a typed pair overrides the same key.
"""

from __future__ import annotations

import functools
import json
import shlex
from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from ..config import goal_defaults

__all__ = ["with_goal_defaults"]

F = TypeVar("F", bound=Callable[..., Any])


def _text(v: Any) -> str:
    return shlex.join(v) if isinstance(v, list) else str(v)


def _pairs(v: dict[str, Any]) -> tuple[str, ...]:
    def one(x: Any) -> str:
        if isinstance(x, bool):
            return "true" if x else "false"
        return json.dumps(x) if isinstance(x, list | dict) else str(x)

    return tuple(f"{k}={one(x)}" for k, x in v.items())


# config key -> (parameter name of `goal new`, how the config value becomes the parameter's value)
_KEYS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "maker": ("maker", _text),
    "maker-type": ("maker_type", str),
    "maker-model": ("maker_model", str),
    "maker-timeout": ("maker_timeout", str),
    "maker-option": ("maker_options", _pairs),
    "oracle": ("oracle_model", str),
    "oracle-option": ("oracle_options", _pairs),
    "max-iterations": ("max_iterations", str),
    "max-duration": ("max_duration", str),
    "max-dollars": ("max_dollars", str),
    "protect": ("protect", tuple),
    "allow-edit": ("allow_edit", tuple),
    "default-protect": ("no_default_protect", lambda v: not v),
    "check-output": ("check_outputs", tuple),
    "check-env": ("check_env", _pairs),
    "sandbox": ("sandbox", str),
    "no-progress": ("no_progress", int),
}
_MERGED = {"maker_options", "oracle_options", "check_env"}


def _typed(ctx: click.Context, name: str) -> bool:
    src = ctx.get_parameter_source(name)
    return src not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def with_goal_defaults(fn: F) -> F:
    """Fill the options of ``goal new`` the user left out from the config files."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        for key, (value, _layer) in goal_defaults(kwargs.get("workspace")).items():
            name, convert = _KEYS[key]
            if name not in kwargs:
                continue
            if name in _MERGED:
                kwargs[name] = convert(value) + tuple(kwargs[name] or ())
            elif not _typed(ctx, name):
                kwargs[name] = convert(value)
        return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
