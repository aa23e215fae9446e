"""tools/list: names from the seeds, annotations, schemas; the prompt."""

from __future__ import annotations

from mcp.server import MCPServer

from tests.mcp.support import legacy, modern

SEED_TOOLS = ["list_changes", "group_changes", "propose_commits", "apply_commit", "generate_pr"]
PAIRING = ["get_session", "move_hunks", "merge_groups", "update_group", "update_commit", "reorder_commits", "refresh"]
CHUNKS = ["load_diff", "list_chunks", "get_chunk", "find_chunks_for_files", "get_file_diff", "get_current_overview"]
TRAJECTORY = ["configure_project", "set_trajectory_intent", "get_file_trajectory", "get_global_trajectory",
              "get_session_summary", "consolidate"]
READ_ONLY = {"list_changes", "get_session", *CHUNKS, "get_file_trajectory", "get_global_trajectory",
             "get_session_summary"}
DESTRUCTIVE = {"apply_commit", "consolidate"}


async def test_every_tool_is_listed_in_order(server: MCPServer) -> None:
    async with legacy(server) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == [*SEED_TOOLS, *PAIRING, *CHUNKS, *TRAJECTORY, "check_lazygit_messages"]


async def test_annotations_say_what_each_tool_may_do(server: MCPServer) -> None:
    async with legacy(server) as client:
        for tool in (await client.list_tools()).tools:
            hints = tool.annotations
            assert hints is not None, tool.name
            assert hints.read_only_hint is (tool.name in READ_ONLY), tool.name
            assert bool(hints.destructive_hint) is (tool.name in DESTRUCTIVE), tool.name


async def test_every_tool_has_a_description_input_and_output_schema(server: MCPServer) -> None:
    async with legacy(server) as client:
        for tool in (await client.list_tools()).tools:
            assert tool.description and not tool.description.startswith(" "), tool.name
            assert tool.input_schema["type"] == "object", tool.name
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            assert tool.title, tool.name


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
        assert set(tools["group_changes"].input_schema["properties"]) == {"change_ids", "revision"}
        assert tools["check_lazygit_messages"].input_schema.get("properties", {}) == {}
        assert set(tools["list_changes"].output_schema["required"]) == {"changes"}


async def test_the_split_my_changes_prompt(server: MCPServer) -> None:
    async with legacy(server) as client:
        [prompt] = (await client.list_prompts()).prompts
        assert prompt.name == "split_my_changes"
        steps = (await client.get_prompt("split_my_changes", {})).messages[0].content.text
        order = [steps.index(tool) for tool in ("list_changes", "group_changes", "move_hunks", "propose_commits",
                                                 "apply_commit", "generate_pr")]
        assert order == sorted(order)
        focused = (await client.get_prompt("split_my_changes", {"focus": "only the parser"})).messages[0].content.text
        assert focused.endswith("Focus: only the parser\n")


async def test_capabilities_for_both_eras(server: MCPServer) -> None:
    async with legacy(server) as client, modern(server) as current:
        for connected in (client, current):
            resources = connected.server_capabilities.resources
            assert resources is not None and resources.subscribe and resources.list_changed
