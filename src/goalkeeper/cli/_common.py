"""Shared CLI plumbing: error -> exit code mapping, consoles, JSON output."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from ..errors import GoalkeeperError, LockedError, SpecError

__all__ = [
    "EXIT_ERROR",
    "EXIT_ESCALATED",
    "EXIT_NOT_DONE",
    "EXIT_OK",
    "EXIT_USAGE",
    "echo_json",
    "err_console",
    "fail",
    "handle_errors",
    "out_console",
]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_ESCALATED = 3
EXIT_NOT_DONE = 4  # not an error, not finished: paused, or the goal does not hold yet

out_console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

F = TypeVar("F", bound=Callable[..., Any])


def echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, default=str))


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True)
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
                err_console.print("  " + issue.format(e.source), markup=False)
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
        except OSError as e:  # a path the user gave cannot be read or written
            fail(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
        except KeyboardInterrupt:
            err_console.print("interrupted; state saved up to the last completed step")
            sys.exit(130)

    return wrapper  # type: ignore[return-value]
