"""The output schemas derived from the wire dataclasses describe what the tools really answer.

Each tool of the flow is called on a real repository through the SDK's client, and its
``structuredContent`` is checked with jsonschema against the tool's full output schema (the
one the server derives, before ``tools/list`` cuts it to its first level).
"""

from __future__ import annotations

from typing import Any

import jsonschema
from mcp.server import MCPServer

from segmint_core.mcp import schemas
from segmint_core.mcp.listing import first_level
from tests.mcp.support import data, legacy


async def test_every_result_of_the_flow_fits_its_derived_schema(server: MCPServer) -> None:
    tools = {t.name: t for t in server._tool_manager.list_tools()}
    answers: dict[str, list[dict[str, Any]]] = {}
    async with legacy(server) as client:

        async def answer(name: str, **arguments: Any) -> dict[str, Any]:
            result = await data(client, name, **arguments)
            answers.setdefault(name, []).append(result)
            return result

        await answer("list_changes")
        grouped = await answer("group_changes")
        [first, second, *_] = grouped["groups"]
        await answer("move_hunks", hunk_ids=[first["hunk_ids"][0]], new_group=True)
        hunk = (await answer("get_session"))["changes"][0]["hunk_ids"][0]
        await answer("move_lines", hunk_id=hunk, lines=[1], new_group=True)
        await answer("merge_groups", group_ids=[g["id"] for g in (await answer("get_session"))["groups"][:2]])
        await answer("update_group", group_id=second["id"], summary="Say the parser is case-insensitive")
        plans = (await answer("propose_commits"))["commits"]
        await answer("update_commit", commit_id=plans[0]["id"], title="fix(parser): lower-case rule_1")
        await answer("reorder_commits", commit_ids=[p["id"] for p in reversed(plans)])
        await answer("check_commits")
        await answer("apply_commit", commit_id=plans[-1]["id"], dry_run=True)
        await answer("apply_commit", commit_id=plans[-1]["id"])
        await answer("generate_pr")
        await answer("refresh")
        await answer("get_session")
        await answer("check_lazygit_messages")
        await answer("undo")

    assert set(answers) == {name for name, tool in tools.items() if tool.output_schema is not None}
    for name, results in answers.items():
        schema = tools[name].output_schema
        for result in results:
            jsonschema.Draft202012Validator(schema).validate(result)
            jsonschema.Draft202012Validator(first_level(schema)).validate(result)  # what clients check
    # undo's dataclass declares all it answers, in order, no key left to additionalProperties
    assert [list(r) for r in answers["undo"]] == [list(tools["undo"].output_schema["properties"])]


def test_statuses_are_enums_in_the_schemas() -> None:
    from pydantic import TypeAdapter

    schema = TypeAdapter(schemas.SessionState).json_schema()
    assert schema["$defs"]["PlanStatus"]["enum"] == ["proposed", "awaiting_approval", "approved", "applied", "failed"]
    assert set(schema["$defs"]["Actor"]["enum"]) == {"person", "agent", "segmint"}
    assert schema["$defs"]["DoubtKind"]["enum"] == ["move", "merge", "split"]
