"""Driving the real app in tests: start it on a repository, wait for it, read its screen."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from textual import events
from textual.pilot import Pilot

from segmint_bench.demo import BASE, EDITED
from segmint_bench.screenshots import NOON, SIZE, pinned_session, settle  # noqa: F401  (the tests' helpers too)
from segmint_core.session.session import Session
from segmint_tui.app import SegmintApp, create_app
from tests.support.repo import Repo


def write_demo(repo: Repo) -> Repo:
    """The demo's tangled working tree (three intents in six files) in ``repo``."""
    for rel, text in BASE.items():
        repo.write(rel, text)
    repo.commit("Initial inventory tool")
    for rel, text in EDITED.items():
        repo.write(rel, text)
    return repo


@asynccontextmanager
async def running(
    path: Path, *, size: tuple[int, int] = SIZE, session: Session | None = None, toasts: bool = False, **options
) -> AsyncIterator[Pilot]:
    """The app on ``path`` (no MCP server, no disk watch, no grouping child unless asked), settled
    after start-up.

    Notifications are recorded either way; ``toasts`` also draws them on the screen.
    """
    options.setdefault("mcp", False)
    options.setdefault("watch", False)
    options.setdefault("group_aside", False)  # grouped in the app's process, whatever the machine's load
    app = create_app(str(path), session=session, **options)
    async with app.run_test(size=size, notifications=toasts) as pilot:
        await settle(pilot)
        yield pilot


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
    pilot.app.post_message(events.Paste(text))  # as the terminal driver does
    await pilot.pause()
