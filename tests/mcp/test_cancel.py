"""A tool call the client cancels (``notifications/cancelled``, sent by the real SDK client when the
caller stops waiting) leaves the session as it was, though its thread runs on: no edit of it begins
once the caller is gone, and what it had already edited is put back. The model is the local stand-in
endpoint (tests/support/openai_standin.py, a test double for a remote OpenAI-compatible server)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import anyio

from segmint_core.config import Settings
from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import data, legacy
from tests.mcp.test_refine import SPLIT
from tests.support.openai_standin import StandIn
from tests.support.refine import REVIEW, replying, three_groups
from tests.support.repo import Repo

WAIT = 20.0


def slow_on(kind: Callable[[dict], bool], answered: threading.Event, seconds: float = 1.5):
    """A stand-in reply that takes ``seconds`` for the first request ``kind`` picks, and says when it answered."""

    def reply(body: dict) -> str:
        if kind(body) and not answered.is_set():
            time.sleep(seconds)
            answered.set()
        return replying(SPLIT, "feat(parser): strip input")(body)

    return reply


def refining(body: dict) -> bool:
    return body["messages"][0]["content"].startswith(REVIEW)


def as_seen(session: Session) -> dict:
    state = session.state.to_dict()
    return {key: state[key] for key in ("groups", "plans", "pr", "activity", "splits", "settled")}


async def cancel_when(client, tool: str, arguments: dict, asked: Callable[[], bool]) -> None:
    """Call ``tool`` and stop waiting for it once ``asked()``: the client sends notifications/cancelled."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(client.call_tool, tool, arguments)
        with anyio.fail_after(WAIT):
            while not asked():
                await anyio.sleep(0.02)
        tg.cancel_scope.cancel()


async def settled(answered: threading.Event) -> None:
    """The stand-in answered the call's thread; give the thread its moment to finish."""
    with anyio.fail_after(WAIT):
        while not answered.is_set():
            await anyio.sleep(0.02)
    await anyio.sleep(0.5)


def session_on(repo: Repo, standin: StandIn) -> Session:
    return Session.open(
        str(repo.path), settings=Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
    )


async def test_a_cancelled_group_changes_leaves_the_session_as_it_was(repo: Repo) -> None:
    three_groups(repo)
    answered = threading.Event()
    with StandIn(slow_on(refining, answered)) as standin:
        session = session_on(repo, standin)
        session.update_group("group-1", "The person's name")
        before = as_seen(session)
        async with legacy(build_server(session)) as client:
            # regrouped (the person's name gone) before the model is asked: cancelled while it thinks
            await cancel_when(
                client, "group_changes", {"refine": True}, lambda: any(refining(r["body"]) for r in standin.requests)
            )
            await settled(answered)
            assert as_seen(session) == before, "neither the grouping nor the model's split stays"
            state = await data(client, "get_session")
    assert [g["summary"] for g in state["groups"]][0] == "The person's name"
    assert len(state["groups"]) == 3 and state["revision"] == session.revision


async def test_a_call_cancelled_while_the_model_writes_changes_nothing(repo: Repo) -> None:
    three_groups(repo)
    answered = threading.Event()
    with StandIn(slow_on(lambda body: not refining(body), answered)) as standin:
        session = session_on(repo, standin)
        before = as_seen(session)
        async with legacy(build_server(session)) as client:
            await cancel_when(client, "propose_commits", {}, lambda: bool(standin.requests))
            await settled(answered)
            assert as_seen(session) == before and session.plans == []
            assert (await data(client, "propose_commits"))["commits"], "the next call is served as ever"


async def test_what_someone_built_on_meanwhile_stays(repo: Repo) -> None:
    three_groups(repo)
    answered = threading.Event()
    with StandIn(slow_on(refining, answered)) as standin:
        session = session_on(repo, standin)
        async with legacy(build_server(session)) as client:

            def person_renames() -> bool:
                if not any(refining(r["body"]) for r in standin.requests):
                    return False
                session.update_group("group-2", "Renamed while the model thought")
                return True

            await cancel_when(client, "group_changes", {"refine": True}, person_renames)
            await settled(answered)
    assert [g.summary for g in session.groups][1] == "Renamed while the model thought"
    assert [g.hunk_ids for g in session.groups][2] == ["change-3:1", "change-3:2"], "the model's split not applied"
    assert [a.action for a in session.activity[-2:]] == ["grouped", "renamed"]
