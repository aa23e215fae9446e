"""The person's saves while the app is open, recorded as provenance under what they said they work on.

Each time files change on disk (the app's own watcher, debounced), every file
changed since its last snapshot is snapshotted under the person's current
intent (``i`` sets it, ``I`` finishes it; ``segmint intent`` in a shell is the
same person). An agent's hook snapshots its own edits as it makes them, so
they are already recorded, under the agent's prompt, by the time a save
reaches here. ``--no-record`` (or ``record_saves = false``) turns it off.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from segmint_core.trajectory import provenance

log = logging.getLogger("segmint.tui")
SOURCE = "tui"


class SaveRecorder:
    """Snapshots of one repository's changed files, one at a time, and the person's intent."""

    def __init__(self, root: str, *, enabled: bool) -> None:
        self.root = Path(root)
        self.enabled = enabled
        self.failure: str | None = None  # the last recording's error, said once in the status line
        self.intent: str | None = None  # the person's current intent, as last read
        self._lock = threading.Lock()

    def record(self) -> None:
        """Snapshot what changed (off the screen's thread); an error is kept to show, never raised."""
        if not self.enabled:
            return
        with self._lock:
            try:
                provenance.record_edit(self.root, None, source=SOURCE)
                self.failure = None
            except Exception as exc:  # a damaged record must not stop the app: said in the status line
                log.warning("could not record the saves: %s", exc)
                self.failure = str(exc)

    def read_intent(self) -> str | None:
        try:
            current = provenance.current_intent(self.root, source=SOURCE)
        except Exception as exc:
            log.warning("could not read the current intent: %s", exc)
            return self.intent
        self.intent = current.text if current else None
        return self.intent

    def begin(self, text: str) -> str:
        """Make ``text`` the person's current intent; the intent as recorded (secrets masked)."""
        with self._lock:
            self.intent = provenance.begin_intent(self.root, text, source=SOURCE).text
        return self.intent

    def finish(self) -> str | None:
        """The person's task is finished; the intent that was current."""
        with self._lock:
            current = provenance.current_intent(self.root, source=SOURCE)  # (said here or by segmint intent)
            if current is not None:
                provenance.end_intent(self.root, source=current.source)
            self.intent = None
        return current.text if current else None

    def status(self) -> str:
        """The status line's words: whether saves are recorded, and under what."""
        if not self.enabled:
            return "saves not recorded (turned off)"
        if self.failure:
            return f"saves not recorded: {self.failure}"
        return f"recording saves · working on: {self.intent}" if self.intent else "recording saves (i: say the task)"
