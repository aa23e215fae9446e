"""Pictures of the main screen, a Python file's diff, the commit editor, the PR pane and the help screen.

One app factory for all of them (``snapshot_app``): the demo repository, a session
whose clock is pinned and that is grouped before the app starts, the local time zone
set to UTC, no MCP server and no file watcher, so a picture depends on nothing but the
code. Update them with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and look
at what changed before committing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

from segmint_tui.app import SegmintApp, create_app
from segmint_bench.screenshots import steady_cursors
from tests.support.repo import Repo
from tests.tui.support import SIZE, pinned_session, settle


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def snapshot_app(demo: Repo) -> SegmintApp:
    return create_app(session=pinned_session(demo.path), mcp=False, watch=False, auto_group=False)


def keys(*pressed: str):
    """A ``run_before`` pressing ``pressed``, letting each session call finish, then clearing the toasts."""

    async def run(pilot: Pilot) -> None:
        await settle(pilot)
        for key in pressed:
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()
        steady_cursors(pilot.app)
        await pilot.pause()

    return run


def test_main_screen(demo: Repo, snap_compare) -> None:
    assert snap_compare(snapshot_app(demo), terminal_size=SIZE, run_before=keys("p", "1"))


def test_diff_of_a_python_file(demo: Repo, snap_compare) -> None:
    # group-1, expanded: four reasons, README.md, then inventory/config.py
    assert snap_compare(
        snapshot_app(demo), terminal_size=SIZE, run_before=keys("right", "down", "down", "down", "down", "down", "down")
    )


def test_commit_editor(demo: Repo, snap_compare) -> None:
    assert snap_compare(snapshot_app(demo), terminal_size=SIZE, run_before=keys("p", "enter"))


def test_pr_pane(demo: Repo, snap_compare) -> None:
    assert snap_compare(snapshot_app(demo), terminal_size=SIZE, run_before=keys("P"))


def test_help_screen(demo: Repo, snap_compare) -> None:
    assert snap_compare(snapshot_app(demo), terminal_size=SIZE, run_before=keys("question_mark"))
