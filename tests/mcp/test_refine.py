"""group_changes(refine=true) through the real MCP SDK client, against the local stand-in endpoint
(tests/support/openai_standin.py, a test double for a remote OpenAI-compatible server)."""

from __future__ import annotations

from segmint_core.config import Settings
from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import data, error, legacy
from tests.support.openai_standin import StandIn
from tests.support.refine import answer, replying, three_groups
from tests.support.repo import Repo

SPLIT = answer(
    splits=[
        {
            "group_id": "group-3",
            "parts": [["change-3:1"], ["change-3:2"]],
            "reason": "parse and render change for different reasons",
        }
    ]
)


async def test_refine_applies_the_models_split_and_the_session_shows_it(repo: Repo) -> None:
    three_groups(repo)
    with StandIn(replying(SPLIT)) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(repo.path), settings=settings)
        async with legacy(build_server(session)) as client:
            result = await data(client, "group_changes", refine=True)
            state = await data(client, "get_session")
    assert {g["id"]: g["hunk_ids"] for g in result["groups"]} == {
        "group-1": ["change-1:1"],
        "group-2": ["change-2:1"],
        "group-3": ["change-3:1"],
        "group-4": ["change-3:2"],
    }
    assert result["refinement"] == {
        "model": "stand-in-chat",
        "notes": [],
        "applied": ["split group-3 in 2 (parse and render change for different reasons)"],
    }
    assert state["groups"] == result["groups"]
    last = state["activity"][-1]
    assert (last["actor"], last["action"]) == ("agent", "refined")
    assert "split group-3 in 2" in last["text"]


async def test_refine_keeps_the_groups_on_a_bad_answer_and_says_why(repo: Repo) -> None:
    three_groups(repo)
    bad = answer(moves=[{"hunk_ids": ["change-1:1", "change-1:1"], "to_group": "group-2", "reason": "r"}])
    with StandIn(replying(bad)) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(repo.path), settings=settings)
        async with legacy(build_server(session)) as client:
            result = await data(client, "group_changes", refine=True)
    assert {g["id"]: g["hunk_ids"] for g in result["groups"]} == {
        "group-1": ["change-1:1"],
        "group-2": ["change-2:1"],
        "group-3": ["change-3:1", "change-3:2"],
    }
    assert result["refinement"]["applied"] == []
    assert result["refinement"]["notes"] == ["kept the offline grouping: the answer names change-1:1 more than once"]


async def test_refine_without_a_chat_model_is_a_clear_error(repo: Repo) -> None:
    three_groups(repo)
    session = Session.open(str(repo.path), settings=Settings())
    async with legacy(build_server(session)) as client:
        message = await error(client, "group_changes", refine=True)
        plain = await data(client, "group_changes")
    assert "set SEGMINT_CHAT_MODEL" in message and "refinement" not in plain
