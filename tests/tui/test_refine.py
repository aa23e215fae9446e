"""G: the chat model refines the groups, in the real app under run_test(); the model is the local
stand-in endpoint (tests/support/openai_standin.py, a test double for a remote OpenAI-compatible server)."""

from __future__ import annotations

from segmint_core.config import Settings
from segmint_core.session.session import Session
from tests.support.openai_standin import StandIn
from tests.support.refine import answer, grouping, replying
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle


def offline(demo: Repo) -> dict[str, list[str]]:
    session = Session.open(str(demo.path), settings=Settings())
    session.regroup()
    return grouping(session)


async def test_g_applies_the_models_merge_and_the_activity_says_who_asked(demo: Repo) -> None:
    before = offline(demo)
    first, second, *_ = before
    reply = answer(merges=[{"group_ids": [second, first], "reason": "one feature"}])
    with StandIn(replying(reply)) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(demo.path), settings=settings)
        async with running(demo.path, session=session) as pilot:
            await pilot.press("G")
            await settle(pilot)
            app = pilot.app
            expected = {gid: hunks for gid, hunks in before.items() if gid != first}
            expected[second] = app.session.units.in_order(before[second] + before[first])
            assert grouping(app.session) == expected
            assert grouping(Session.open(str(demo.path), settings=Settings())) == expected, "saved for every face"
            assert f"Refined with stand-in-chat: merged {second}, {first} into {second} (one feature)" in notifications(
                app
            )
            assert "person asked stand-in-chat to refine the groups" in screen_text(app)
            await pilot.press("z")  # the refinement is undone like a move
            await settle(pilot)
            assert grouping(app.session) == before


async def test_g_keeps_the_groups_on_a_bad_answer_and_says_why(demo: Repo) -> None:
    before = offline(demo)
    with StandIn(replying("not json at all")) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(demo.path), settings=settings)
        async with running(demo.path, session=session) as pilot:
            await pilot.press("G")
            await settle(pilot)
            assert grouping(pilot.app.session) == before
            (told,) = [n for n in notifications(pilot.app) if n.startswith("stand-in-chat changed no group")]
            assert "kept the offline grouping: the answer is not JSON" in told


async def test_g_without_a_chat_model_says_what_to_set(demo: Repo) -> None:
    before = offline(demo)
    session = Session.open(str(demo.path), settings=Settings())
    async with running(demo.path, session=session) as pilot:
        await pilot.press("G")
        await settle(pilot)
        assert grouping(pilot.app.session) == before
        assert any("set SEGMINT_CHAT_MODEL" in n for n in notifications(pilot.app))
