"""The MCP tools, by area; each module has ``register(server, services)``.

Every tool is ``async def`` and does its blocking work in a worker thread
(``in_thread``), so the event loop (the TUI's, when embedded) never waits on
git or on the session's lock. Each is annotated read-only, or says whether it
is destructive, like mcp-server-git's tools.
"""

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field, StrictBool

from segmint_core.mcp.args import MAX_TEXT
from segmint_core.mcp.results import from_tool_result, tool_errors
from segmint_core.mcp.services import in_thread
from segmint_core.toolresult import ToolResult

# Reads the repository or the session, changes nothing.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Edits Segmint's session (groups, plans, the PR draft); never the repository.
EDITS_SESSION = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
EDITS_SESSION_IDEMPOTENT = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# Edits the session, and calls a remote model when one is configured (SEGMINT_CHAT_MODEL, SEGMINT_EMBEDDINGS).
MAY_CALL_MODEL = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True
)
# Like MAY_CALL_MODEL, and drops the open commit plans and the PR draft, with what people wrote in them.
REGROUPS = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True)
# Writes commits to the repository.
COMMITS = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)


@dataclass(frozen=True)
class Wording:
    """What an agent reads about a tool: a short title, and when to use it, what it returns."""

    title: str
    description: str


def add_service_tool(
    server: MCPServer,
    method: Callable[..., ToolResult],
    annotations: ToolAnnotations,
    wording: Wording,
    call: Callable[..., ToolResult] | None = None,
) -> None:
    """Register a feature service's method as it is: its signature is the input schema, its
    ``ToolResult`` the answer (``call`` may wrap it). The title and description are written
    for an agent (``wording``); the method's docstring stays the developer's."""
    run = call or method

    async def tool(**kwargs: Any) -> CallToolResult:
        return from_tool_result(await in_thread(run, **kwargs))

    tool.__name__ = method.__name__
    tool.__doc__ = wording.description
    signature = inspect.signature(method, eval_str=True)
    # No output schema: "an object" would be all it could say (the result's shape is in the
    # description), at a cost in every tools/list. (Functions declare no __signature__.)
    tool.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[_bounded(p) for p in signature.parameters.values()], return_annotation=CallToolResult
    )
    server.add_tool(tool_errors(tool), title=wording.title, annotations=annotations)


def _bounded(parameter: inspect.Parameter) -> inspect.Parameter:
    """A text parameter with a length limit in its schema (paths, patterns, intents); a flag that takes
    true or false only (pydantic would read "yes" or 1 as true)."""
    if parameter.annotation is bool:
        return parameter.replace(annotation=StrictBool)
    if parameter.annotation is str:
        return parameter.replace(annotation=Annotated[str, Field(max_length=MAX_TEXT)])
    if parameter.annotation == str | None:
        return parameter.replace(annotation=Annotated[str | None, Field(max_length=MAX_TEXT)])
    return parameter
