"""Session events: every change to the session is announced to subscribers.

The TUI and the MCP server subscribe; callbacks run on the thread that made the
change, after the session's lock is released, so a callback may read the session
(the TUI hops to its own loop with ``call_from_thread``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("segmint.session")

CHANGES = "changes"
GROUPS = "groups"
PLANS = "plans"
PR = "pr"
MESSAGES = "messages"
ACTIVITY = "activity"


@dataclass(frozen=True)
class SessionEvent:
    kind: str
    revision: int
    actor: str
    detail: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[SessionEvent], None]


class EventBus:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add ``listener``; returns a function that removes it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def emit(self, event: SessionEvent) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception:  # a broken listener must not break the session
                log.exception("session listener failed on %s", event.kind)
