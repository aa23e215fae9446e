"""A session's review messages: the queue, with every change announced.

The session owns one ``ReviewFeed``; the TUI and the MCP server reach it
through the session's ``add_review_message`` / ``take_review_messages`` /
``peek_review_messages`` / ``watch_review_messages``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from segmint_core.review.models import ReviewMessage, new_message
from segmint_core.review.queue import MessageQueue
from segmint_core.review.watch import POLL_SECONDS, SignatureWatcher

Announce = Callable[[str, dict[str, Any]], None]  # (actor, detail)

PERSON = "person"


class ReviewFeed:
    """``announce(actor, detail)`` follows every change made here and, while a
    ``watch()`` is active, every change another process (``segmint send``)
    makes to the queue file, within a fraction of a second."""

    def __init__(self, queue: MessageQueue, announce: Announce) -> None:
        self.queue = queue
        self._announce = announce
        self._lock = threading.Lock()
        self._watcher: SignatureWatcher | None = None
        self._watching = 0

    def add(
        self, file: str, comment: str, *, line: int | None = None, hunk_id: str | None = None, actor: str = PERSON
    ) -> ReviewMessage | None:
        """Queue a comment; the message, or None if the same one is already queued."""
        message = new_message(file, comment, self.queue.project_root, line=line, hunk_id=hunk_id)
        added = self.queue.append(message)
        self._saw_own_write()
        if not added:
            return None
        self._announce(actor, {"added": message.id, "file": message.file, "line": message.line})
        return message

    def take(self, actor: str) -> list[ReviewMessage]:
        """Every pending message; the queue is emptied (clear-on-read)."""
        messages = self.queue.take()
        self._saw_own_write()
        if messages:
            self._announce(actor, {"taken": len(messages)})
        return messages

    def peek(self) -> list[ReviewMessage]:
        return self.queue.peek()

    def watch(self, interval: float = POLL_SECONDS) -> Callable[[], None]:
        """Start noticing other processes' writes; returns the function that stops it.

        Watches nest: the poller runs while at least one caller (the TUI, the
        MCP server) still watches, and each write is announced once.
        """
        with self._lock:
            self._watching += 1
            if self._watcher is None:
                self._watcher = SignatureWatcher(self.queue.signature, self._external_change, interval=interval)
                self._watcher.start()
        stopped = False

        def stop() -> None:
            nonlocal stopped
            with self._lock:
                if stopped:
                    return
                stopped = True
                self._watching -= 1
                watcher = self._watcher if self._watching == 0 else None
                if watcher is not None:
                    self._watcher = None
            if watcher is not None:
                watcher.stop()

        return stop

    def _external_change(self) -> None:
        self._announce(PERSON, {"source": "another process"})

    def _saw_own_write(self) -> None:
        with self._lock:
            watcher = self._watcher
        if watcher is not None:
            watcher.seen(self.queue.signature())
