"""Clearer errors than the SDK's defaults, for tools and prompts.

The SDK answers a tool call whose arguments do not fit the input schema with
pydantic's report: "Error executing tool move_hunks: 1 validation error for
move_hunksArguments ... For further information visit https://errors.pydantic.dev/2.14/...".
This rewrites it to "Invalid arguments for move_hunks: hunk_ids: Input should
be a valid list", which does not change with the pydantic version.
"""

from __future__ import annotations

import re
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import ValidationError

_REPORT = re.compile(r"Error executing tool (?P<tool>[^:\n]+): \d+ validation errors? for \w+\n(?P<body>.*)", re.DOTALL)
_DETAIL = re.compile(r" \[type=.*$")


async def tidy_argument_errors(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    result = await call_next(ctx)
    if ctx.method != "tools/call" or not isinstance(result, dict) or not result.get("isError"):
        return result
    content = result.get("content") or []
    if len(content) == 1 and isinstance(content[0], dict) and content[0].get("type") == "text":
        tidy = tidy_report(str(content[0].get("text", "")))
        if tidy is not None:
            return {**result, "content": [{"type": "text", "text": tidy}]}
    return result


def tidy_report(text: str) -> str | None:
    """The one-line form of a pydantic argument report, or None if ``text`` is not one."""
    match = _REPORT.fullmatch(text)
    if match is None:
        return None
    problems: list[str] = []
    field = ""
    for line in match["body"].splitlines():
        if line.startswith("    "):  # "For further information visit ..."
            continue
        if line.startswith("  "):
            problems.append(f"{field}: {_DETAIL.sub('', line.strip())}" if field else _DETAIL.sub("", line.strip()))
        else:
            field = line.strip()
    return f"Invalid arguments for {match['tool']}: " + "; ".join(problems)


GATED = "Invalid request parameters"  # the SDK's message for a request before the handshake, with no data


async def request_errors(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Say what is wrong where the SDK answers ``-32602`` with empty data: a request sent before
    ``initialize`` (the handshake's gate), or params that do not fit the method."""
    try:
        return await call_next(ctx)
    except MCPError as exc:
        error = exc.error
        if (error.code, error.message, error.data) == (INVALID_PARAMS, GATED, "") and ctx.session.client_params is None:
            raise MCPError(
                INVALID_PARAMS,
                GATED,
                f"{ctx.method} was sent before initialize: send initialize, then "
                "notifications/initialized, then your requests",
            ) from None
        raise
    except ValidationError as exc:
        problems = [f"{'.'.join(str(part) for part in e['loc']) or 'params'}: {e['msg']}" for e in exc.errors()[:5]]
        raise MCPError(INVALID_PARAMS, GATED, f"Invalid params for {ctx.method}: " + "; ".join(problems)) from None


async def prompt_errors(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """An unknown prompt or bad prompt arguments: ``-32602`` with the SDK's message ("Unknown
    prompt: x"), or which arguments are wrong and why, instead of an error with code 0 and a
    traceback in the log."""
    if ctx.method != "prompts/get":
        return await call_next(ctx)
    try:
        return await call_next(ctx)
    except ValueError as exc:
        raise MCPError(INVALID_PARAMS, _prompt_problem(exc, (ctx.params or {}).get("name"))) from None


def _prompt_problem(exc: ValueError, name: object) -> str:
    """The arguments pydantic refused behind the SDK's "Error rendering prompt x", else its message."""
    cause: BaseException | None = exc
    while cause is not None and not isinstance(cause, ValidationError):
        cause = cause.__cause__
    if cause is None:
        return str(exc)
    problems = [f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in cause.errors()]
    return f"Invalid arguments for {name}: " + "; ".join(problems)
