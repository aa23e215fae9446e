"""Taking back what Segmint wrote: undo of a whole operation (an apply, all commits of one batch)."""

from typing import Annotated, Any

from mcp.server import MCPServer
from mcp_types import CallToolResult

from segmint_core.errors import RefusedError
from segmint_core.mcp import schemas
from segmint_core.mcp.args import Id
from segmint_core.mcp.results import json_text, success, tool_errors
from segmint_core.mcp.services import Services, in_thread
from segmint_core.mcp.tools import COMMITS
from segmint_core.session.models import AGENT
from segmint_core.wire import to_wire


def register(server: MCPServer, services: Services) -> None:
    @server.tool(title="Undo", annotations=COMMITS)
    @tool_errors
    async def undo(op_id: Id | None = None) -> Annotated[CallToolResult, schemas.UndoResult]:
        """Take back Segmint's last operation (an apply or batch), or op_id and all after it.
        Returns {operations: ['op-3'], head: '9b1e0d2'}
        """
        session = services.session

        def work() -> dict[str, Any]:
            present = session.presence()
            if present.person_present and not present.agent_can_commit:
                raise RefusedError(
                    "An agent's undo waits for the person: ask them to undo in Segmint (key u), "
                    "or to allow agent commits"
                )
            outcome = session.undo(op_id, actor=AGENT)
            return to_wire(
                schemas.UndoResult(
                    operations=outcome.operations,
                    commits=outcome.commits,
                    head=outcome.head,
                    message=outcome.sentence(),
                )
            )

        data = await in_thread(work)
        return success(json_text(data), data)
