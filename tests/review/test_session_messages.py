"""Review messages through the session: stored in its folder, announced to its listeners."""

from __future__ import annotations

import threading
import time

import pytest

from segmint_core.errors import UnknownIdError
from segmint_core.review import MessageQueue, new_message
from segmint_core.session.events import MESSAGES, SessionEvent
from segmint_core.session.session import Session
from tests.support.repo import Repo


@pytest.fixture
def session(repo: Repo) -> Session:
    repo.write("app.py", "def main():\n    return 1\n")
    repo.commit()
    repo.write("app.py", "def main():\n    return 2\n")
    return Session.open(str(repo.path))


def recorder(session: Session) -> list[SessionEvent]:
    seen: list[SessionEvent] = []
    session.subscribe(lambda e: seen.append(e) if e.kind == MESSAGES else None)
    return seen


def test_add_take_and_peek_announce_and_persist(session: Session, repo: Repo) -> None:
    seen = recorder(session)
    queued = session.add_review_message("app.py", "Return 3 instead", line=2, hunk_id="change-1:1")
    assert queued is not None and queued.hunk_id == "change-1:1"
    assert session.add_review_message("app.py", "Return 3 instead", line=2, hunk_id="change-1:1") is None
    assert [(e.kind, e.actor) for e in seen] == [(MESSAGES, "person")]
    assert session.messages == session.peek_review_messages() == [queued]
    reopened = Session.open(str(repo.path))  # a restart keeps them
    assert reopened.peek_review_messages() == [queued]
    assert session.take_review_messages() == [queued]
    assert seen[-1].actor == "agent" and seen[-1].detail == {"taken": 1}
    assert session.take_review_messages() == []
    assert len(seen) == 2, "taking from an empty queue announces nothing"


def test_unknown_hunk_is_refused(session: Session) -> None:
    with pytest.raises(UnknownIdError, match="Unknown hunk ID: change-9:1"):
        session.add_review_message("app.py", "x", hunk_id="change-9:1")


def test_watching_notices_another_process_within_a_second(session: Session, repo: Repo) -> None:
    arrived = threading.Event()
    session.subscribe(lambda e: arrived.set() if e.kind == MESSAGES else None)
    stop = session.watch_review_messages()
    try:
        other = MessageQueue(session.folder, str(repo.path))  # what `segmint send` does
        start = time.monotonic()
        other.append(new_message("app.py", "from lazygit", str(repo.path), line=1))
        assert arrived.wait(timeout=2)
        assert time.monotonic() - start < 1.0
    finally:
        stop()


def test_own_writes_are_announced_once_while_watching(session: Session) -> None:
    seen = recorder(session)
    stop = session.watch_review_messages()
    nested = session.watch_review_messages()  # the TUI and the MCP server both watch
    try:
        session.add_review_message("app.py", "once", line=1)
        time.sleep(0.6)
    finally:
        nested()
        stop()
        stop()  # stopping twice is harmless
    assert len(seen) == 1
