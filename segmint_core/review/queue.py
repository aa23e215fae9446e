"""The message queue: a JSON file in the session folder, shared by processes.

Every change happens under an exclusive ``fcntl`` lock on a separate lock file
and is written with an atomic replace, so the TUI, several ``segmint send``
processes and a reader never lose or tear each other's messages; a reader that
only peeks needs no lock at all.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from segmint_core.atomic import set_aside, write_atomic
from segmint_core.errors import SegmintError
from segmint_core.review.models import ReviewMessage

DEFAULT_KEPT = 10
KEPT_ENV = "SEGMINT_MESSAGES_KEPT"
QUEUE_FILE = "messages.json"
LOCK_FILE = "messages.lock"
FORMAT = 1

Signature = tuple[int, int, int] | None  # (inode, size, mtime_ns) of the queue file


class MessageQueue:
    """The pending review messages of the project at ``project_root``.

    At most ``kept`` messages are kept (the oldest go first); default 10, or
    ``SEGMINT_MESSAGES_KEPT``. Messages naming another project root are
    ignored: never stored, never returned.
    """

    def __init__(self, folder: str | os.PathLike[str], project_root: str, *, kept: int | None = None) -> None:
        self.folder = Path(folder)
        self.project_root = os.path.realpath(project_root)
        self.kept = kept if kept is not None else kept_from_env()
        self.path = self.folder / QUEUE_FILE

    def append(self, message: ReviewMessage) -> bool:
        """Queue ``message``; False if it is a duplicate or belongs to another project."""
        if not self._ours(message):
            return False
        with self._locked():
            messages, _ = self._load()
            if any(m.id == message.id for m in messages):
                return False
            self._write((messages + [message])[-self.kept :])
        return True

    def take(self) -> list[ReviewMessage]:
        """Every pending message, oldest first; the queue is empty afterwards (clear-on-read)."""
        with self._locked():
            messages, stored = self._load()
            if stored:
                self._write([])
        return messages

    def peek(self) -> list[ReviewMessage]:
        """Every pending message, oldest first, leaving them queued."""
        return self._load()[0]

    def signature(self) -> Signature:
        """Changes whenever the file is rewritten (each write is a new inode): for watchers."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    # -- internals ------------------------------------------------------------------

    def _ours(self, message: ReviewMessage) -> bool:
        return os.path.realpath(message.project_root) == self.project_root

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _load(self) -> tuple[list[ReviewMessage], int]:
        """This project's messages, and how many entries the file holds in all."""
        try:
            raw = self.path.read_bytes()
        except OSError:
            return [], 0  # none yet, or unreadable: a queue is never worth refusing to start over
        try:
            # surrogatepass, as written: a file name that is not UTF-8 keeps its bytes as surrogates
            data = json.loads(raw.decode("utf-8", "surrogatepass"))
        except (ValueError, RecursionError):  # (nested too deep for the parser: no queue this tool wrote)
            set_aside(self.path)  # the comments it held stay there to read, not overwritten by the next
            return [], 0
        entries = data.get("messages") if isinstance(data, dict) else None
        entries = entries if isinstance(entries, list) else []
        messages = [ReviewMessage.from_dict(e) for e in entries]
        return [m for m in messages if m is not None and self._ours(m)], len(entries)

    def _write(self, messages: list[ReviewMessage]) -> None:
        payload = {"format": FORMAT, "messages": [m.to_dict() for m in messages]}
        write_atomic(self.path, json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8", "surrogatepass"))


def kept_from_env() -> int:
    raw = os.environ.get(KEPT_ENV)
    if not raw:
        return DEFAULT_KEPT
    try:
        kept = int(raw)
    except ValueError:
        kept = 0
    if kept < 1:
        raise SegmintError(f"{KEPT_ENV} must be a positive whole number of messages, not {raw!r}")
    return kept
