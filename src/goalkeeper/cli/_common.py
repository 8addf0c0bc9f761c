"""Shared CLI plumbing: error -> exit code mapping, consoles, JSON output, safe text.

Output cannot crash and cannot take over the terminal: any text from a spec, a
state file or a subprocess goes through :func:`clean` (lone surrogates become
U+FFFD; control characters, including ESC, and bidi overrides become visible
``\\xNN`` escapes) and, where rich markup is on, :func:`esc`. ``--json`` output
(:func:`echo_json`) is always valid ASCII JSON: no lone surrogates, no NaN.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar

import click
from pydantic import ValidationError
from pydantic.alias_generators import to_camel
from rich.console import Console
from rich.markup import escape

from ..errors import GoalkeeperError, LockedError, NotFoundError, SpecError
from ..store.encode import json_safe
from ..store.ids import IdKind, check_id, resolve_id

__all__ = [
    "EXIT_ERROR",
    "EXIT_ESCALATED",
    "EXIT_NOT_DONE",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_USAGE",
    "camel",
    "clean",
    "echo_json",
    "err_console",
    "esc",
    "fail",
    "handle_errors",
    "json_safe",
    "out_console",
    "resolve",
    "terminal_safe",
]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_ESCALATED = 3
EXIT_NOT_DONE = 4  # not an error, not finished: paused, or the goal does not hold yet
EXIT_PIPE = 141  # stdout closed by its reader (`| head`), as for any Unix tool killed by SIGPIPE

for _stream in (sys.stdout, sys.stderr):  # a character the terminal cannot show is escaped, not fatal
    _reconfigure = getattr(_stream, "reconfigure", None)
    if _reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a closed or exotic stream
            _reconfigure(errors="backslashreplace")

def _width(stream: Any) -> int | None:
    """A terminal's own width; in a pipe or a file, wide enough that no table cuts an id."""
    try:
        return None if stream.isatty() else 4096
    except (AttributeError, ValueError, OSError):
        return 4096


out_console = Console(highlight=False, soft_wrap=True, emoji=False, width=_width(sys.stdout))
err_console = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False, width=_width(sys.stderr))

F = TypeVar("F", bound=Callable[..., Any])

_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def clean(text: object) -> str:
    """``text`` safe for any terminal: no lone surrogates, no control or bidi characters
    (newlines and tabs stay)."""
    s = text if isinstance(text, str) else str(text)
    return _CONTROL.sub(_visible, _SURROGATE.sub("\ufffd", s))


def terminal_safe(value: Any) -> Any:
    """``value`` (an event, a record) with every string in it :func:`clean`, keys included: for a
    formatter that escapes rich markup but not control characters (the runtime's reporter)."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {terminal_safe(k): terminal_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [terminal_safe(v) for v in value]
    return value


def esc(text: object) -> str:
    """:func:`clean`, then escaped for rich markup (user text inside a markup string)."""
    return escape(clean(text))


def camel(d: Mapping[str, Any]) -> dict[str, Any]:
    """``d`` with its own keys in camelCase, the one convention of every ``--json`` output; the
    values are kept as they are (maps keyed by fact or action names keep the spec's names)."""
    return {to_camel(k) if isinstance(k, str) else k: v for k, v in d.items()}


def echo_json(obj: Any) -> None:
    """One JSON document on stdout: always valid, always ASCII."""
    click.echo(json.dumps(json_safe(obj), allow_nan=False))


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {esc(message)}", markup=True)
    sys.exit(code)


def handle_errors(fn: F) -> F:
    """Turn goalkeeper errors into a styled message and exit code 1, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SpecError as e:
            err_console.print("[bold red]error:[/] invalid spec", markup=True)
            for issue in e.issues:
                err_console.print("  " + clean(issue.format(e.source)), markup=False)
            sys.exit(EXIT_ERROR)
        except LockedError as e:
            fail(str(e))
        except ValidationError as e:  # a flag value that breaks a model rule
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "input"
            msg = str(first["msg"]).removeprefix("Value error, ")
            fail(f"{where}: {msg}")
        except GoalkeeperError as e:
            fail(str(e))
        except BrokenPipeError:  # `goalkeeper ... | head`: the reader left; say nothing more
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_PIPE)
        except OSError as e:  # a path the user gave cannot be read or written
            fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
        except KeyboardInterrupt:
            err_console.print("interrupted; state saved up to the last completed step")
            sys.exit(130)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise  # usage errors: click prints them (exit 2)
        except Exception as e:  # a bug: one clear line, never a traceback (GOALKEEPER_DEBUG=1 shows it)
            if os.environ.get("GOALKEEPER_DEBUG"):
                raise
            fail(f"internal error: {type(e).__name__}: {e}; this is a bug in goalkeeper — please report "
                 "it with the command you ran (GOALKEEPER_DEBUG=1 shows the traceback)")

    return wrapper  # type: ignore[return-value]


def resolve(kind: IdKind, text: str, *, local: bool = True) -> str:
    """The id a user typed (an id, a unique prefix, or ``last``), checked before any file is touched.

    With a remote engine the local store may not know the id: a well-formed id passes as is.
    """
    try:
        return resolve_id(kind, text)
    except NotFoundError:
        if local:
            raise
        return check_id(kind, text)


def percent(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A click callback: a finite percent from 0 to 100 (``nan`` would never compare true)."""
    if value is not None and not (math.isfinite(value) and 0 <= value <= 100):
        raise click.BadParameter(f"{value} is not a percent from 0 to 100", ctx=ctx, param=param)
    return value
