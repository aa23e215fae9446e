"""Notice when files change on disk, so the app refreshes without being asked.

watchdog reports every event; ``changed()`` is called (on watchdog's thread)
for those that can change what ``git diff`` shows: files in the working tree,
and git's index, HEAD and branch refs (a commit or ``git add`` in another
terminal). ``saved()`` is called when the session's state file is written,
by this process or another (a headless ``segmint mcp``, ``segmint apply``).
The rest of Segmint's folder under ``.git/segmint/`` and git's lock and
object files are ignored. The app debounces the calls.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from segmint_core.session.state import STATE_FILE
from segmint_core.session.store import FOLDER
from segmint_core.trajectory.watcher import quiet_rewatch_warnings

log = logging.getLogger("segmint.tui")
quiet_rewatch_warnings()

GIT_FILES_THAT_MATTER = ("index", "HEAD")
SESSION_FILE = f"{FOLDER}/{STATE_FILE}"  # relative to the git dir


def matters(rel_to_root: str, git_rel: str | None) -> bool:
    """Whether a path (relative to the work tree; ``git_rel`` relative to the git dir if inside it) matters."""
    if git_rel is not None:
        if git_rel.endswith(".lock"):
            return False
        return git_rel in GIT_FILES_THAT_MATTER or git_rel.startswith("refs/heads/")
    parts = rel_to_root.split("/")
    return ".git" not in parts


class _Handler(FileSystemEventHandler):
    def __init__(self, root: str, git_dir: str, changed: Callable[[], object], saved: Callable[[], object]) -> None:
        self.root = root
        self.git_dir = git_dir
        self.changed = changed
        self.saved = saved

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            if not raw:
                continue
            path = os.fsdecode(raw)
            git_rel = self._git_rel(path)
            if git_rel == SESSION_FILE:  # written whole, then renamed into place
                self.saved()
                return
            if self._matters(path, git_rel):
                self.changed()
                return

    def _git_rel(self, path: str) -> str | None:
        if path == self.git_dir or path.startswith(self.git_dir + os.sep):
            return os.path.relpath(path, self.git_dir).replace(os.sep, "/")
        return None

    def _matters(self, path: str, git_rel: str | None) -> bool:
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        if git_rel is None and (rel == "." or rel.startswith("..")):
            return False
        return matters(rel, git_rel)


class DiskWatch:
    def __init__(self, root: str, git_dir: str, changed: Callable[[], object], saved: Callable[[], object]) -> None:
        self.root = os.path.realpath(root)
        self.git_dir = os.path.realpath(git_dir)
        self._handler = _Handler(self.root, self.git_dir, changed, saved)
        self._observer: BaseObserver | None = None

    def start(self) -> bool:
        observer = Observer()
        observer.schedule(self._handler, self.root, recursive=True)
        if not self.git_dir.startswith(self.root + os.sep):  # worktrees, GIT_DIR elsewhere
            observer.schedule(self._handler, self.git_dir, recursive=False)
            folder = os.path.join(self.git_dir, os.path.dirname(SESSION_FILE))
            if os.path.isdir(folder):
                observer.schedule(self._handler, folder, recursive=False)
        observer.daemon = True
        try:
            observer.start()
        except OSError as exc:  # inotify limits: the app still works, refresh with r
            log.warning("cannot watch %s: %s", self.root, exc)
            return False
        self._observer = observer
        return True

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None
