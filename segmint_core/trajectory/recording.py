"""Recording one project: the recorder, its debouncer and the file watcher, started and stopped together."""

from __future__ import annotations

import logging
import os

from segmint_core.trajectory.clock import Clock, system_clock
from segmint_core.trajectory.debounce import Debouncer
from segmint_core.trajectory.ignore import ensure_ignored
from segmint_core.trajectory.recorder import Recorder, Snapshot
from segmint_core.trajectory.watcher import Watcher

log = logging.getLogger(__name__)

DEFAULT_DEBOUNCE = 2.0


class Recording:
    """Watches the project at ``root`` (a git work tree's top folder) and snapshots every save.

    ``start()`` creates ``.trajectory/`` if needed, keeps it ignored (``.git/info/exclude``,
    once), starts the watcher (its own threads) and records the tree as it is
    (``[BASELINE]`` the first time, ``[RESYNC]`` if files changed while nothing
    was recording). ``stop()`` stops watching and records what is still
    waiting in the debouncer, so nothing saved before the stop is lost.
    """

    def __init__(
        self,
        root: str,
        *,
        debounce: float = DEFAULT_DEBOUNCE,
        clock: Clock = system_clock,
        lock_timeout: float = 3.0,
        retry_delay: float = 0.5,
    ) -> None:
        self.root = root = os.path.realpath(root)
        self.recorder = Recorder(root, clock=clock, lock_timeout=lock_timeout)
        self.debouncer = Debouncer(debounce, self._flush, retry_delay=retry_delay)
        self.watcher = Watcher(root, self.debouncer.touch)
        self.exclude_updated = False
        self.opening: Snapshot | None = None
        self.running = False

    def start(self) -> "Recording":
        # Refuse a foreign .trajectory, and keep it ignored, before watching anything.
        self.recorder.shadow.init()
        added = ensure_ignored(self.root)
        # Watch before catching up, so a save made during the catch-up is not missed.
        self.watcher.start()
        self.debouncer.start()
        try:
            self.opening = self.recorder.open()
        except BaseException:
            self.stop()
            raise
        self.exclude_updated = added or self.recorder.exclude_updated
        self.running = True
        log.info("recording %s (debounce %.1f s)", self.root, self.debouncer.delay)
        return self

    def stop(self) -> None:
        self.watcher.stop()
        self.debouncer.stop(flush_pending=True)
        self.running = False

    def _flush(self, paths: list[str]) -> None:
        self.recorder.record(sorted(paths))

    def wait_idle(self, timeout: float) -> bool:
        """Block until no save is waiting to be recorded; False on timeout."""
        return self.debouncer.wait_idle(timeout)
