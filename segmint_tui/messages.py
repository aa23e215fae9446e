"""Messages that cross threads into the app: session events, progress, disk changes.

All are posted with ``post_message``, which is thread-safe, from the session's
listeners (any thread), the regroup worker and the file watcher.
"""

from __future__ import annotations

from textual.message import Message

from segmint_core.session.events import SessionEvent


class SessionChanged(Message):
    """The session changed (the person, the agent or Segmint itself)."""

    def __init__(self, event: SessionEvent) -> None:
        super().__init__()
        self.event = event


class GroupingProgress(Message):
    """Progress of a running regroup; ``total == 0`` hides the indicator."""

    def __init__(self, done: int, total: int, text: str) -> None:
        super().__init__()
        self.done = done
        self.total = total
        self.text = text


class DiskChanged(Message):
    """Files in the working tree (or git's index or HEAD) changed on disk."""


class SessionSaved(Message):
    """The session's state file was written, maybe by another process."""


class PairingChanged(Message):
    """The embedded MCP server started, stopped or failed."""
