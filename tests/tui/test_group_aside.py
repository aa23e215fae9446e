"""A fresh tree is grouped in a forked process while the app starts: the same groups,
messages and ? marks as grouping in the app's own process, and the app's own grouping
when the child fails."""

from __future__ import annotations

import os
import re
import sys
import threading
import time

import pytest

import segmint_tui.group_aside as group_aside
from segmint_core.session.session import Session
from segmint_tui.app import create_app
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, write_demo

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the app forks its grouping on Linux only")


def _groups(session: Session) -> list[tuple]:
    return [(g.id, g.summary, tuple(g.reasons), tuple(g.hunk_ids), tuple(g.change_ids)) for g in session.groups]


def _alone() -> bool:
    # The child is forked only from a process with no other thread (see GroupAside.start).
    return threading.active_count() == 1


def _below_header(app) -> list[str]:  # type: ignore[no-untyped-def]
    # The header names the repository's folder; the activity says when.
    return [re.sub(r"\d\d:\d\d:\d\d", "hh:mm:ss", line) for line in screen_text(app).splitlines()[1:]]


async def test_the_child_groups_as_the_app_would(demo: Repo, tmp_path) -> None:
    assert _alone()
    async with running(demo.path, group_aside=True) as pilot:
        app = pilot.app
        assert app._aside is not None and app._aside.status == 0  # it ran, and is reaped
        grouped = _groups(app.session)
        doubts = app.main.tree.confidence.uncertain
        shown = _below_header(app)
        assert "Grouped into 3 groups" in notifications(app)
        assert app.session.evidence_cache is not None  # the child's, sent through the pipe
    assert _groups(Session.open(str(demo.path))) == grouped  # saved, as any grouping
    twin = write_demo(Repo(tmp_path / "twin"))
    async with running(twin.path, group_aside=False) as pilot:  # the app's own grouping: the reference
        assert pilot.app._aside is None
        assert _groups(pilot.app.session) == grouped
        assert pilot.app.main.tree.confidence.uncertain == doubts
        assert _below_header(pilot.app) == shown


async def test_when_the_child_fails_the_app_groups_by_itself(demo: Repo, monkeypatch) -> None:
    def broken(root, pipe):
        raise RuntimeError("the grouping process failed")

    monkeypatch.setattr(group_aside, "_group", broken)  # the fork copies this process, patch included
    assert _alone()
    async with running(demo.path, group_aside=True) as pilot:
        app = pilot.app
        assert app._aside is None  # it failed, and the app took over
        assert len(app.session.groups) == 3
        assert "Grouped into 3 groups" in notifications(app)


async def test_no_child_when_a_session_was_saved(demo: Repo) -> None:
    Session.open(str(demo.path)).regroup()
    async with running(demo.path, group_aside=True) as pilot:
        assert pilot.app._aside is None and len(pilot.app.session.groups) == 3


async def test_no_child_when_no_core_is_idle(demo: Repo, monkeypatch) -> None:
    # A busy machine: two processes would take turns at the same cores, for more work.
    monkeypatch.setattr(os, "getloadavg", lambda: (float(os.cpu_count() or 1), 0.0, 0.0))
    monkeypatch.setattr(group_aside, "runnable_now", lambda: (os.cpu_count() or 1) + 1)
    assert not group_aside.core_idle()
    async with running(demo.path, group_aside=None) as pilot:  # the app decides, as it does for a person
        assert pilot.app._aside is None and len(pilot.app.session.groups) == 3
        assert "Grouped into 3 groups" in notifications(pilot.app)


async def test_quitting_while_the_child_groups_leaves_no_process(demo: Repo, monkeypatch) -> None:
    real = group_aside._group

    def slow(root, pipe):
        time.sleep(30)  # the child is still at work when the app quits
        real(root, pipe)

    monkeypatch.setattr(group_aside, "_group", slow)
    assert _alone()
    app = create_app(str(demo.path), mcp=False, watch=False, group_aside=True)
    aside = app._aside
    assert aside is not None
    started = time.monotonic()
    async with app.run_test() as pilot:
        await pilot.pause(0.3)
        assert app.grouping and app.busy
    assert aside.stopped and aside.status is not None  # ended and reaped as the app quit
    assert time.monotonic() - started < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(aside.pid, os.WNOHANG)


def test_a_core_is_idle_when_the_load_average_only_lags(monkeypatch) -> None:
    # The last minute's average still counts a build that has just ended; this instant, only we run.
    monkeypatch.setattr(os, "getloadavg", lambda: (float(os.cpu_count() or 1), 0.0, 0.0))
    monkeypatch.setattr(group_aside, "runnable_now", lambda: 1)
    assert group_aside.core_idle() == ((os.cpu_count() or 1) > 1)
    assert group_aside.runnable_now() >= 1  # this process is runnable as it reads
