"""One session, many processes: the TUI, `segmint mcp`, `segmint apply` in another terminal.

``SharedLock`` is the session's lock. Entering it means: this thread alone in
this process (a re-entrant lock), this process alone on this repository (an
``fcntl`` lock on a file in ``.git/segmint/``), and the freshest state, since
``on_enter`` adopts whatever another process saved since this one last read or
wrote. Every read and edit of a session happens inside it, so no process keeps
state the others cannot see, and no edit overwrites another.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Callable
from pathlib import Path

from segmint_core.errors import NotARepositoryError, RefusedError


class SharedLock:
    def __init__(self, path: Path, on_enter: Callable[[], None]) -> None:
        self._path = path
        self._on_enter = on_enter
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> "SharedLock":
        self._thread_lock.acquire()
        self._depth += 1
        if self._depth == 1:
            try:
                self._fd = _open_lock_file(self._path)
                fcntl.flock(self._fd, fcntl.LOCK_EX)
                self._on_enter()
            except BaseException:
                self._release()
                raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            os.close(self._fd)  # closing releases the fcntl lock
            self._fd = None
        self._thread_lock.release()


class OneAtATime:
    """Held by one thread of one process on the repository at a time (the same thread may enter
    again); anyone else is refused at once with ``busy``, never kept waiting: a caller that
    waited here while holding the session's lock would stop the holder from finishing."""

    def __init__(self, path: Path, busy: str) -> None:
        self._path = path
        self._busy = busy
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> "OneAtATime":
        if not self._thread_lock.acquire(blocking=False):
            raise RefusedError(self._busy)
        self._depth += 1
        if self._depth == 1:
            try:
                self._fd = _open_lock_file(self._path)
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._release()
                raise RefusedError(self._busy) from None
            except BaseException:
                self._release()
                raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._thread_lock.release()


def _open_lock_file(path: Path) -> int:
    """The lock file (``.git/segmint/session.lock``), its folder made again if someone removed it.

    A git folder that is gone is not made again: that is no repository any more.
    """
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except FileNotFoundError:
        git_dir = path.parent.parent
        if not git_dir.is_dir():
            raise NotARepositoryError(f"Not a git repository any more: {git_dir} is gone") from None
    path.parent.mkdir(exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when another process replaces the file (it is renamed into place)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)
