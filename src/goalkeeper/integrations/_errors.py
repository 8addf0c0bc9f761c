"""The words an integration (an MCP tool, a hook) gives for an error: the CLI's words.

:func:`describe` mirrors ``goalkeeper.cli._common.handle_errors`` so an agent
reading an MCP tool error or a hook message sees the same sentence a user sees
in a terminal, never a traceback.
"""

from __future__ import annotations

from pydantic import ValidationError

from ..errors import GoalkeeperError, SpecError

__all__ = ["describe"]


def describe(exc: BaseException) -> str:
    """One message for ``exc``, as the CLI prints it (without the ``error:`` prefix)."""
    if isinstance(exc, SpecError):
        return "invalid spec\n" + "\n".join("  " + i.format(exc.source) for i in exc.issues)
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "input"
        return f"{where}: " + str(first["msg"]).removeprefix("Value error, ")
    if isinstance(exc, GoalkeeperError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    return (f"internal error: {type(exc).__name__}: {exc}; this is a bug in goalkeeper — please report it "
            "with what you ran (GOALKEEPER_DEBUG=1 shows the traceback)")
