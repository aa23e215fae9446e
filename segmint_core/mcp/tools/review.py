"""The review-message tool: the person's comments, read once."""

from typing import Annotated

from mcp.server import MCPServer
from mcp_types import CallToolResult, ToolAnnotations

from segmint_core.mcp import schemas
from segmint_core.mcp.results import success, tool_errors
from segmint_core.mcp.services import Services, in_thread
from segmint_core.review import format_messages
from segmint_core.session.models import AGENT

# Reading consumes the messages (clear-on-read, as in the seed): not read-only,
# and not worth a confirmation prompt either.
CONSUMES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def register(server: MCPServer, services: Services) -> None:
    @server.tool(title="Check review messages", annotations=CONSUMES)
    @tool_errors
    async def check_lazygit_messages() -> Annotated[CallToolResult, schemas.MessagesResult]:
        """Check for new messages from lazygit: the person's comments on files, lines or hunks (from
        lazygit, `segmint send` or the Segmint TUI), oldest first; call it before planning. Reading
        empties the queue.

        Returns {count: 1, messages: [{file: 'src/app.py', line: 42, comment: 'Needs error handling', ...}]}
        """
        messages = await in_thread(services.session.take_review_messages, actor=AGENT)
        data = {"count": len(messages), "messages": [m.to_dict() for m in messages]}
        return success(format_messages(messages), data)
