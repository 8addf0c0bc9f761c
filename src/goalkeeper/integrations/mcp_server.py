"""``goalkeeper mcp``: the tools of :mod:`.tools` as an MCP server over stdio (official ``mcp`` SDK, v2).

Each tool's input schema comes from its typed signature below. A result is
one JSON document, given twice: as text for the model and as structured
content for the client. Bad input is a tool error (``isError``) whose text
is the CLI's message; nothing ever sends a traceback. The SDK is an optional
extra: without it :func:`build_server` raises :class:`MissingExtraError`
naming ``pip install 'goalkeeper[mcp]'``.
"""

# No `from __future__ import annotations`: the SDK reads these signatures at runtime.

import inspect
import json
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field, ValidationError

from .. import __version__
from ..errors import MissingExtraError
from ..store.encode import json_safe
from ._errors import describe
from .tools import (
    TOOLS,
    build_tool,
    goal_check_tool,
    goal_list_tool,
    goal_logs_tool,
    goal_new_tool,
    goal_status_tool,
    observe_tool,
    plan_tool,
    triage_list_tool,
    triage_show_tool,
    validate_tool,
)

__all__ = ["INSTRUCTIONS", "argument_problem", "build_server", "describe_arguments", "request_id", "serve",
           "unreadable_reply"]

INSTRUCTIONS = (
    "goalkeeper decides when a coding goal is really done. To work on a goal yourself: call goal_new with the "
    "objective and the stopping conditions (`until`, e.g. 'python -m pytest -q'), do the work, then call "
    "goal_check. Keep working while its state is 'active' (it names the failing checks, rejection findings "
    "and a next hint); you are done when it is 'converged'; when it is 'escalated', stop and tell the user "
    "the triage item id. Never edit tests, test or lint configuration, CI files or goalkeeper's state to "
    "make a check pass: goalkeeper seals them and rejects the iteration."
)

Spec = Annotated[str, Field(description="Path to a goalkeeper spec file (YAML or JSON), relative to the server's "
                                        "working directory or absolute.")]
GoalId = Annotated[str, Field(description="A goal id (goal-xxxxxxxx), a unique prefix of one, or 'last'.")]


def _result(fn: Callable[..., dict[str, Any]], **kwargs: Any) -> Any:
    """Run one tool; its dict as JSON text plus structured content, or its error as the CLI words it."""
    from mcp.types import CallToolResult, TextContent

    try:
        data = fn(**kwargs)
    except Exception as e:  # every failure is the caller's to read, in the CLI's words
        return CallToolResult(content=[TextContent(type="text", text=describe(e))], is_error=True)
    safe = json_safe(data)
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(safe, allow_nan=False))],
                          structured_content=safe)


def _error(text: str) -> Any:
    from mcp.types import CallToolResult, TextContent

    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _clip(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def argument_problem(name: str, arguments: dict[str, Any]) -> str | None:
    """An unknown tool or argument, in the CLI's words (the SDK would ignore an unknown argument)."""
    if name not in TOOLS:
        return f"unknown tool {name!r} (known: {', '.join(sorted(TOOLS))})"
    known = list(inspect.signature(TOOLS[name][0]).parameters)
    extra = sorted(set(arguments) - set(known))
    if extra:
        return f"{name}: unknown argument {extra[0]!r} (known: {', '.join(known)})"
    return None


def describe_arguments(name: str, exc: ValidationError) -> str:
    """Arguments that do not match a tool's input schema: ``tool: arg: what is wrong (got ...)``."""
    lines = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "missing":
            lines.append(f"{name}: {where}: required")
        else:
            lines.append(f"{name}: {where}: {err['msg']} (got {_clip(err.get('input'))})")
    return "\n".join(lines)


def _skip_value(line: str, i: int) -> int:
    """The index just past the JSON value at ``line[i]``, without recursion (the nesting may be deep)."""
    depth, in_str, esc = 0, False, False
    for j in range(i, len(line)):
        ch = line[j]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
                if depth == 0:
                    return j + 1
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth <= 0:
                return j + 1
        elif depth == 0 and ch in ",}":
            return j
    return len(line)


def request_id(line: str) -> int | str | None:
    """The top-level ``id`` of a request line that did not parse as a message, when it can be found.

    Read key by key at the top level only, so an argument nested too deep for any
    JSON parser, or a string that is not valid Unicode, does not hide the id.
    """
    dec = json.JSONDecoder()
    i = len(line) - len(line.lstrip())
    if not line.startswith("{", i):
        return None
    i += 1
    try:
        while True:
            while i < len(line) and line[i] in " \t\r\n,":
                i += 1
            if i >= len(line) or line[i] != '"':
                return None
            key, i = dec.raw_decode(line, i)
            while i < len(line) and line[i] in " \t\r\n:":
                i += 1
            if key == "id":
                value, _ = dec.raw_decode(line, i)
                return value if isinstance(value, int | str) and not isinstance(value, bool) else None
            i = _skip_value(line, i)
    except (ValueError, RecursionError):
        return None


def unreadable_reply(exc: Exception) -> Any:
    """The JSON-RPC error for a line the SDK's transport could not read (it would drop it unanswered).

    Valid JSON that still is not a message the SDK can take (a lone surrogate escape,
    nesting past the parser's limit) is -32602 invalid params; anything else is
    -32700 parse error. ``None`` when the exception carries no line to answer.
    """
    from mcp_types import INVALID_PARAMS, PARSE_ERROR, ErrorData, JSONRPCError

    errors = exc.errors() if isinstance(exc, ValidationError) else []
    line = errors[0].get("input") if errors else None
    if not isinstance(line, str):
        return None
    rid = request_id(line)
    try:
        json.loads(line)
    except RecursionError:
        code, text = INVALID_PARAMS, "the request is nested too deeply to read; send flatter arguments"
    except ValueError as e:
        code, text = PARSE_ERROR, f"parse error: the line is not JSON ({e})"
    else:
        code, text = INVALID_PARAMS, ("the request holds a string that is not valid Unicode (a lone UTF-16 "
                                      "surrogate escape such as \\ud800); send valid UTF-8 text")
    return JSONRPCError(jsonrpc="2.0", id=rid, error=ErrorData(code=code, message=text))


class _Answering:
    """The SDK's stdio read stream, with every line it could not read answered instead of dropped.

    The SDK hands such a line on as an exception, which its dispatcher only logs:
    the client never hears back and waits for ever.
    """

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner, self._write = inner, write

    @property
    def last_context(self) -> Any:  # the dispatcher restores the sender's context from here
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        from mcp.shared.message import SessionMessage

        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = unreadable_reply(item)
            if reply is None:
                return item
            await self._write.send(SessionMessage(reply))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> "_Answering":
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> "_Answering":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def build_server() -> Any:
    """The MCP server with every goalkeeper tool registered (``mcp.server.mcpserver.MCPServer``)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.server.stdio import stdio_server
        from mcp.shared.exceptions import MCPError
        from mcp.types import INVALID_PARAMS, CallToolResult, ToolAnnotations
    except ImportError:
        raise MissingExtraError("the MCP SDK (mcp>=2.0)", "mcp") from None

    class Server(MCPServer):
        """Arguments are checked before a tool runs, and refused in goalkeeper's words."""

        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            problem = argument_problem(name, arguments)
            if problem:
                return _error(problem)
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as e:
                if isinstance(e.__cause__, ValidationError):
                    return _error(describe_arguments(name, e.__cause__))
                raise

        async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Any = None) -> Any:
            # goalkeeper has no prompts; the SDK's own refusal is a ValueError it logs with a traceback,
            # which hosts show in their MCP log as if goalkeeper had crashed
            if self._prompt_manager.get_prompt(name) is None:
                raise MCPError(INVALID_PARAMS, f"unknown prompt {name!r}: goalkeeper serves tools only")
            return await super().get_prompt(name, arguments, context)

        async def run_stdio_async(self) -> None:
            async with stdio_server() as (read_stream, write_stream):
                await self._lowlevel_server.run(_Answering(read_stream, write_stream), write_stream,
                                                self._lowlevel_server.create_initialization_options())

    server = Server("goalkeeper", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")

    def tool(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        _fn, description, read_only = TOOLS[name]
        return server.tool(name=name, description=description, structured_output=False,
                           annotations=ToolAnnotations(read_only_hint=read_only))

    @tool("validate")
    def validate(spec: Spec, strict: Annotated[bool, Field(description="Lint warnings count as errors.")] = False,
                 ) -> CallToolResult:
        return _result(validate_tool, spec=spec, strict=strict)  # type: ignore[no-any-return]

    @tool("plan")
    def plan(
        spec: Spec,
        state: Annotated[str | dict[str, Any] | None, Field(
            description="A JSON state file path, or an object of fact values; default: the spec's initial values."
        )] = None,
        search: Annotated[str, Field(description="astar (optimal), regression (optimal, backward) or greedy.")]
        = "astar",
        exclude: Annotated[list[str] | None, Field(description="Actions to leave out.")] = None,
        max_seconds: Annotated[float | None, Field(description="Give up after this many seconds.", ge=0)] = None,
    ) -> CallToolResult:
        return _result(plan_tool, spec=spec, state=state, search=search,  # type: ignore[no-any-return]
                       exclude=exclude, max_seconds=max_seconds)

    @tool("observe")
    def observe(spec: Spec) -> CallToolResult:
        return _result(observe_tool, spec=spec)  # type: ignore[no-any-return]

    @tool("build")
    def build(
        spec: Spec,
        target: Annotated[str, Field(description="llm, code or hybrid.")],
        out_dir: Annotated[str | None, Field(description="Output folder; default: build/<target> next to the spec.")]
        = None,
    ) -> CallToolResult:
        return _result(build_tool, spec=spec, target=target, out_dir=out_dir)  # type: ignore[no-any-return]

    @tool("goal_new")
    def goal_new(
        objective: Annotated[str, Field(description="What must be true when the goal is done.")],
        until: Annotated[list[str] | str | None, Field(
            description="Stopping condition commands, run by goalkeeper without a shell "
                        "(e.g. 'python -m pytest -q', 'ruff check .').")] = None,
        types: Annotated[list[str] | None, Field(
            description="Type of each `until` command in order (test_pass, lint_clean, coverage_threshold, "
                        "build_pass, custom_command); inferred when left out.")] = None,
        threshold: Annotated[float | None, Field(description="Percent for coverage_threshold conditions.")] = None,
        maker_type: Annotated[str, Field(
            description="'host' (default): you, the calling agent, are the maker and call goal_check; or "
                        "'command' / a coding-agent CLI that goalkeeper runs itself.")] = "host",
        maker: Annotated[list[str] | str | None, Field(
            description="The maker's argv (maker_type command only).")] = None,
        session: Annotated[str | None, Field(
            description="Bind the goal to one agent session: that session's hooks act on it only.")] = None,
        workspace: Annotated[str | None, Field(
            description="The directory the goal is about; default: the server's working directory.")] = None,
        max_iterations: Annotated[int | None, Field(ge=1, description="Iteration budget; null: unlimited.")] = 15,
        max_duration: Annotated[str | None, Field(
            description="Active-time budget ('2h', '30m'); null: unlimited.")] = "2h",
        max_dollars: Annotated[float | None, Field(ge=0, description="Dollar budget; null: unlimited.")] = 10.0,
        protect: Annotated[list[str] | None, Field(description="Extra sealed path globs.")] = None,
        allow_edit: Annotated[list[str] | None, Field(
            description="Protected globs the maker may change (e.g. pyproject.toml to add a dependency).")] = None,
        check_outputs: Annotated[list[str] | None, Field(
            description="Globs of files the checks themselves write in the workspace.")] = None,
        check_env: Annotated[dict[str, str] | None, Field(
            description="Variables the checks run with.")] = None,
        oracle: Annotated[str, Field(
            description="deterministic, openai:MODEL, anthropic:MODEL or agent:CLI[:MODEL].")] = "deterministic",
        sandbox: Annotated[str, Field(description="auto, bwrap or none (command makers).")] = "auto",
    ) -> CallToolResult:
        return _result(goal_new_tool, objective=objective, until=until, types=types,  # type: ignore[no-any-return]
                       threshold=threshold, maker_type=maker_type, maker=maker, session=session,
                       workspace=workspace, max_iterations=max_iterations, max_duration=max_duration,
                       max_dollars=max_dollars, protect=protect, allow_edit=allow_edit,
                       check_outputs=check_outputs, check_env=check_env, oracle=oracle, sandbox=sandbox)

    @tool("goal_check")
    def goal_check(goal_id: GoalId) -> CallToolResult:
        return _result(goal_check_tool, goal_id=goal_id)  # type: ignore[no-any-return]

    @tool("goal_status")
    def goal_status(goal_id: GoalId) -> CallToolResult:
        return _result(goal_status_tool, goal_id=goal_id)  # type: ignore[no-any-return]

    @tool("goal_list")
    def goal_list(active: Annotated[bool, Field(description="Only active and paused goals.")] = False,
                  ) -> CallToolResult:
        return _result(goal_list_tool, active=active)  # type: ignore[no-any-return]

    @tool("goal_logs")
    def goal_logs(goal_id: GoalId,
                  iteration: Annotated[int | None, Field(ge=1, description="One iteration; default: all.")] = None,
                  ) -> CallToolResult:
        return _result(goal_logs_tool, goal_id=goal_id, iteration=iteration)  # type: ignore[no-any-return]

    @tool("triage_list")
    def triage_list(status: Annotated[str | None, Field(
            description="Only items with this status: pending, acted, dismissed, deferred.")] = None,
                    ) -> CallToolResult:
        return _result(triage_list_tool, status=status)  # type: ignore[no-any-return]

    @tool("triage_show")
    def triage_show(item_id: Annotated[str, Field(
            description="A triage item id (tri-xxxxxxxx), a unique prefix of one, or 'last'.")]) -> CallToolResult:
        return _result(triage_show_tool, item_id=item_id)  # type: ignore[no-any-return]

    return server


def serve() -> None:
    """Serve every tool over stdio until the client closes the connection."""
    build_server().run("stdio")
