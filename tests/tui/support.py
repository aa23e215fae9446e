"""Driving the real app in tests: start it on a repository, wait for it, read its screen."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from pathlib import Path

from textual import events
from textual.pilot import Pilot

from segmint_core.session.session import Session
from segmint_tui.app import SegmintApp, create_app
from segmint_tui.demo import BASE, EDITED
from tests.support.repo import Repo

SIZE = (120, 36)
NOON = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


def write_demo(repo: Repo) -> Repo:
    """The demo's tangled working tree (three intents in six files) in ``repo``."""
    for rel, text in BASE.items():
        repo.write(rel, text)
    repo.commit("Initial inventory tool")
    for rel, text in EDITED.items():
        repo.write(rel, text)
    return repo


def pinned_session(path: Path, *, grouped: bool = True) -> Session:
    """A session whose clock always says noon, so activity lines are the same in every run."""
    session = Session.open(str(path), clock=lambda: NOON)
    if grouped:
        session.regroup()
    return session


@asynccontextmanager
async def running(path: Path, *, size: tuple[int, int] = SIZE, session: Session | None = None,
                  toasts: bool = False, **options) -> AsyncIterator[Pilot]:
    """The app on ``path`` (no MCP server, no disk watch unless asked), settled after start-up.

    Notifications are recorded either way; ``toasts`` also draws them on the screen.
    """
    options.setdefault("mcp", False)
    options.setdefault("watch", False)
    app = create_app(str(path), session=session, **options)
    async with app.run_test(size=size, notifications=toasts) as pilot:
        await settle(pilot)
        yield pilot


async def settle(pilot: Pilot, timeout: float = 20.0) -> None:
    """Wait until every session call the app started has finished and the screen redrew."""
    waited = 0.0
    while waited < timeout:
        await pilot.pause(0.02)
        waited += 0.02
        if not pilot.app.busy:
            await pilot.pause()
            if not pilot.app.busy:
                return
    raise AssertionError(f"the app was still busy after {timeout} s")


async def until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """Wait for something that happens outside the app (an agent, the disk)."""
    waited = 0.0
    while not condition():
        if waited >= timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")
        await pilot.pause(0.05)
        waited += 0.05
    await settle(pilot)


def screen_text(app: SegmintApp) -> str:
    """The screen as plain text, as a person would read it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def notifications(app: SegmintApp) -> list[str]:
    return [f"{n.title}: {n.message}" if n.title else n.message for n in app._notifications]


async def type_text(pilot: Pilot, text: str) -> None:
    """Put ``text`` into the focused input as a paste (typing it key by key costs a frame per key)."""
    pilot.app.post_message(events.Paste(text))   # as the terminal driver does
    await pilot.pause()
