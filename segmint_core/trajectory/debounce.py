"""Per-path debouncing: a burst of saves to a path becomes one flush of its final state.

``touch(path)`` (any thread) pushes the path's due time to ``now + delay``. A
worker thread hands every path whose due time has passed to ``flush`` in one
call, together with paths due within the next half delay (saved in the same
burst a moment later), so paths saved together are recorded together. Memory
is bounded by the number of distinct paths waiting, never by the number of events.

When ``flush`` raises (say the shadow repository stayed locked), the paths go
back in the queue and are tried again ``retry_delay`` later: a snapshot is
delayed, never dropped.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

log = logging.getLogger(__name__)

MAX_BATCH = 5000
COALESCE = 0.5  # of the delay: paths due this soon after the first join its flush


class Debouncer:
    def __init__(
        self,
        delay: float,
        flush: Callable[[list[str]], object],
        *,
        retry_delay: float = 0.5,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.delay = delay
        self.retry_delay = retry_delay
        self._flush = flush
        self._now = monotonic
        # Due times in touch order; since every touch waits the same delay,
        # the first entry is (nearly always) the next one due.
        self._due: OrderedDict[str, float] = OrderedDict()
        self._cond = threading.Condition()
        self._flushing = False
        self._running = False
        self._thread: threading.Thread | None = None
        self.max_pending = 0

    # -- feeding -----------------------------------------------------------------

    def touch(self, path: str) -> None:
        with self._cond:
            self._due[path] = self._now() + self.delay
            self._due.move_to_end(path)
            self.max_pending = max(self.max_pending, len(self._due))
            self._cond.notify_all()

    @property
    def pending(self) -> int:
        with self._cond:
            return len(self._due)

    def wait_pending(self, predicate: Callable[[int], bool], timeout: float) -> bool:
        """Block until ``predicate(number of paths waiting)`` holds; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(len(self._due)), timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is waiting or being flushed; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._due and not self._flushing, timeout)

    # -- running -----------------------------------------------------------------

    def start(self) -> None:
        with self._cond:
            if self._running:
                return
            self._running = True
        self._thread = threading.Thread(target=self._run, name="trajectory-debounce", daemon=True)
        self._thread.start()

    def stop(self, *, flush_pending: bool = True) -> None:
        """Stop the worker; by default flush what is still waiting first (no wait)."""
        with self._cond:
            self._running = False
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if flush_pending:
            with self._cond:
                batch = list(self._due)
                self._due.clear()
            if batch:
                self._call_flush(batch)

    def _run(self) -> None:
        while True:
            with self._cond:
                batch = self._wait_for_due()
                if batch is None:
                    return
                self._flushing = True
            try:
                self._call_flush(batch)
            finally:
                with self._cond:
                    self._flushing = False
                    self._cond.notify_all()

    def _wait_for_due(self) -> list[str] | None:
        """Under the lock: the paths now due, or None when stopping."""
        while self._running:
            if not self._due:
                self._cond.wait()
                continue
            now = self._now()
            first_due = next(iter(self._due.values()))
            if first_due > now:
                self._cond.wait(first_due - now)
                continue
            batch: list[str] = []
            horizon = now + self.delay * COALESCE
            for path, due in list(self._due.items()):
                if due > horizon or len(batch) >= MAX_BATCH:
                    break
                batch.append(path)
                del self._due[path]
            ready = self._defer_busy_folders(batch, now)
            if ready:
                return ready
        return None

    def _defer_busy_folders(self, batch: list[str], now: float) -> list[str]:
        """Keep back a folder while paths under it still wait: it would record them mid-burst."""
        if not self._due:
            return batch
        busy = {path[:i] for path in self._due for i, ch in enumerate(path) if ch == "/"}
        ready = []
        for path in batch:
            if path in busy:
                self._due[path] = now + self.delay
            else:
                ready.append(path)
        return ready

    def _call_flush(self, batch: list[str]) -> None:
        try:
            self._flush(batch)
        except Exception as exc:
            log.debug("flush failure", exc_info=True)
            if self._requeue(batch):
                log.warning("recording %d paths failed (%s); retrying in %.1f s", len(batch), exc, self.retry_delay)
            else:
                log.warning(
                    "recording %d paths failed while stopping (%s); the next start catches them up", len(batch), exc
                )

    def _requeue(self, batch: list[str]) -> bool:
        with self._cond:
            if not self._running:
                return False
            due = self._now() + self.retry_delay
            for path in batch:
                if path not in self._due:
                    self._due[path] = due
            self._cond.notify_all()
            return True
