"""File-system events (watchdog) turned into project-relative paths for the debouncer.

Only names are handled here; no file is opened. Paths under ``.git`` or
``.trajectory`` are dropped at once. Whether a path may be recorded (the
project's ignore rules) is decided when it is flushed, by git itself.
Folders created, deleted or moved are passed on as folders: the recorder
records what is under them, which also covers files the OS reported before a
watch on a new folder existed.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from segmint_core.trajectory.errors import TrajectoryError
from segmint_core.trajectory.ignore import is_internal

log = logging.getLogger(__name__)


def quiet_rewatch_warnings() -> None:
    """watchdog warns when a folder created during a recursive scan is registered twice; it keeps
    one callback and loses no event, so the warning is noise (and, in the terminal UI, a line
    written over the screen)."""
    warnings.filterwarnings("ignore", message="Callback with id .* already exists", category=RuntimeWarning)


quiet_rewatch_warnings()

EVENTS = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileDeletedEvent,
    FileMovedEvent,
    FileAttribEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]


class _Handler(FileSystemEventHandler):
    def __init__(self, root: str, touch: Callable[[str], None]) -> None:
        self.root = root
        self.touch = touch

    def on_any_event(self, event: FileSystemEvent) -> None:
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            rel = self.relative(os.fsdecode(raw)) if raw else None
            if rel is not None:
                self.touch(rel)

    def relative(self, path: str) -> str | None:
        rel = os.path.relpath(path, self.root)
        if rel == "." or rel.startswith(".." + os.sep) or rel == "..":
            return None
        rel = rel.replace(os.sep, "/")
        return None if is_internal(rel) else rel


class Watcher:
    """Watches the project folder recursively; calls ``touch(relative_path)`` per event."""

    def __init__(self, root: str, touch: Callable[[str], None]) -> None:
        self.root = root
        self._handler = _Handler(root, touch)
        self._observer: BaseObserver | None = None

    def start(self) -> None:
        observer = Observer()
        observer.schedule(self._handler, self.root, recursive=True, event_filter=EVENTS)
        observer.daemon = True
        try:
            observer.start()
        except OSError as exc:  # inotify limits (max_user_watches, max_user_instances)
            raise TrajectoryError(f"Cannot watch {self.root}: {exc.strerror or exc}.") from exc
        self._observer = observer

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join()
            self._observer = None
