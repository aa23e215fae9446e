"""The edit-trajectory tools, with the annotations the service declares (a read-only one
spelled out in full, since a client may take a missing destructiveHint for true)."""

from mcp.server import MCPServer
from mcp_types import ToolAnnotations

from segmint_core.mcp.services import Services
from segmint_core.mcp.tools import READ_ONLY, Wording, add_service_tool
from segmint_core.trajectory.service import TOOLS

# What an agent reads; the service's docstrings say the same for developers, at length.
WORDING = {
    "configure_project": Wording(
        "Record a project's edit timeline",
        (
            "Start recording every save in the repository (or a folder the person allowed) into a shadow "
            "repository, .trajectory/ (excluded in .git/info/exclude); grouping then ties edits made together. "
            "Needed once, before the other timeline tools.\n"
            "Example: path='/home/me/app'. Returns {root: '/home/me/app', already_running: false, ...}"
        ),
    ),
    "set_trajectory_intent": Wording(
        "Say what you are working on",
        (
            "Declare the task you start, before editing: its edits are recorded under it, and Segmint groups "
            "them into one commit titled from it. Call again for each new task.\n"
            "Example: intent='Fix the crash on an empty config'. "
            "Returns {intent: 'Fix the crash on an empty config', previous: null}"
        ),
    ),
    "finish_trajectory_intent": Wording(
        "Say the task is finished",
        (
            "The task declared with set_trajectory_intent is done: edits from now on belong to no task "
            "until the next set_trajectory_intent.\nReturns {finished: 'Fix the crash on an empty config'}"
        ),
    ),
    "get_file_trajectory": Wording(
        "Show how a file evolved",
        (
            "The last depth snapshots of one file (path relative to the project), oldest first, with "
            "diffs; a return to earlier content is marked [Revert Detected].\n"
            "Returns {filepath: 'src/app.py', snapshots: [{time: '...', message: '...', diff: '...'}]}"
        ),
    ),
    "get_global_trajectory": Wording(
        "Show recent edits",
        (
            "Recent snapshots across the project, oldest first, each with its time, intent and files "
            "(the last limit, or all since the last consolidate).\n"
            "Returns {commits: [{time: '...', message: '...', files: [...]}], total_commits: 40}"
        ),
    ),
    "get_session_summary": Wording(
        "Show where the last work session stopped",
        (
            "Where the last work session (snapshots under an hour apart) stopped: its time span, intents "
            "and files changed.\n"
            "Returns {is_new_session: true, last_session: {ended: '...', final_intent: '...', files: [...]}}"
        ),
    ),
    "consolidate": Wording(
        "Fold recent snapshots into one",
        (
            "Squash the snapshots since the last consolidate into one named by intent; rewrites only "
            "the shadow history in .trajectory/, never the project's.\n"
            "Example: intent='Implemented login'. Returns {squashed: 12, commit: '9c1e...', ...}"
        ),
    ),
}


def register(server: MCPServer, services: Services) -> None:
    for name, hints in TOOLS.items():
        annotations = (
            READ_ONLY
            if hints.get("readOnlyHint")
            else ToolAnnotations.model_validate({**hints, "openWorldHint": False})
        )
        add_service_tool(server, getattr(services.trajectory, name), annotations, WORDING[name])
