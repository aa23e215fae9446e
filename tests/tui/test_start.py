"""The first frame comes at once, with progress, however long the session takes to open."""

from __future__ import annotations

from segmint_core.session.session import Session
from segmint_tui.app import create_app
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle


async def test_the_first_frame_shows_progress_while_the_session_opens(demo: Repo) -> None:
    # Another process holds the session (as `segmint apply` would, or git reading a
    # 19 MB regenerated file): the app is on screen all the same, saying what it waits for.
    other = Session.open(str(demo.path))
    other.lock.__enter__()
    try:
        app = create_app(str(demo.path), mcp=False, watch=False, group_aside=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.5)
            assert app.first_paint is not None and app.session is None
            assert "Reading the changes from git…" in screen_text(app)
            await pilot.press("p", "g", "2", "enter", "x")  # nothing to act on yet: nothing breaks
            await pilot.pause(0.1)
            other.lock.__exit__(None, None, None)
            other = None
            await settle(pilot)
            assert app.session is not None and "#3 +" in screen_text(app)
            assert "Reading the changes" not in screen_text(app)
            assert "m Move" in screen_text(app), "the footer offers what the open session allows"
    finally:
        if other is not None:
            other.lock.__exit__(None, None, None)


async def test_a_saved_session_set_aside_is_told(demo: Repo) -> None:
    saved = demo.path / ".git" / "segmint" / "session.json"
    Session.open(str(demo.path)).propose_commits()
    saved.write_bytes(b"{not json")
    async with running(demo.path) as pilot:
        aside = saved.parent / "session.json.unreadable"
        told = f"Recovered: Segmint could not read its saved session: it is kept as {aside}, and a new session starts."
        assert told in notifications(pilot.app)
        assert aside.read_bytes() == b"{not json"
