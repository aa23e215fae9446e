"""Noticing queue writes by other processes (``segmint send``) within a fraction of a second.

Polling one ``stat`` a few times a second is cheaper and more dependable than
a file-system watch for a single file that is replaced, not modified, on every
write.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("segmint.messages")

POLL_SECONDS = 0.2


class SignatureWatcher:
    """Calls ``on_change`` (on its own thread) whenever ``read_signature()`` differs from the last one seen.

    ``seen(signature)`` records a signature its owner produced itself, so its
    own writes are not reported twice.
    """

    def __init__(
        self, read_signature: Callable[[], object], on_change: Callable[[], None], *, interval: float = POLL_SECONDS
    ) -> None:
        self._read = read_signature
        self._on_change = on_change
        self._interval = interval
        self._last = read_signature()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="segmint-messages-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def seen(self, signature: object) -> None:
        with self._lock:
            self._last = signature

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            current = self._read()
            with self._lock:
                changed, self._last = current != self._last, current
            if changed:
                try:
                    self._on_change()
                except Exception:  # a broken listener must not end the watch
                    log.exception("review-message listener failed")
