"""The edit-trajectory tools (seed 003), with the annotations the service declares."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from segmint_core.mcp.services import Services
from segmint_core.mcp.tools import add_service_tool
from segmint_core.trajectory.service import TOOLS


def register(server: MCPServer, services: Services) -> None:
    for name, hints in TOOLS.items():
        annotations = ToolAnnotations.model_validate({**hints, "openWorldHint": False})
        add_service_tool(server, getattr(services.trajectory, name), annotations)
