"""Grouping a fresh tree in a forked process while the app starts, so two cores work at once.

On a tree with no saved session the app groups every change as it opens: a
second of CPU that, in the app's own process, takes turns with the screen's
drawing for the interpreter's lock. Forked before Textual starts (and only when
the process has no other thread, so the child inherits no lock held half-way),
a child process opens the session and groups it with the very calls the app
would make (``Session.open``, ``Session.regroup``), holding the session's lock
as any process does. The app's own open waits for that lock and takes up the
saved groups, as it takes up any other process's save.

The child writes frames to a pipe: progress while it groups, ``grouped`` once
the groups are saved, then the evidence grouping made (units and links, pickled)
so that the app's confidence need not read and link every hunk again. If the
child fails, the app groups in its own process as before.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from segmint_core.git import Git
from segmint_core.session.state import STATE_FILE
from segmint_core.session.store import FOLDER

PROGRESS, GROUPED, EVIDENCE = b"p", b"g", b"e"
HEADER = 5  # a frame: its kind (one byte), the payload's length (four), the payload
PROGRESS_EVERY = 0.05  # seconds between progress frames
EVIDENCE_WAIT = 30.0  # seconds the confidence waits for the child's evidence (making it anew takes seconds)


@dataclass
class GroupAside:
    """A child process grouping the session; the read end of its pipe."""

    pid: int
    fd: int
    evidence: bytes | None = field(default=None, repr=False)  # pickled as sent; unpickled when wanted
    status: int | None = None  # the child's exit status, once reaped
    stopped: bool = False  # the app is quitting
    _ended: threading.Event = field(default_factory=threading.Event, repr=False)  # pipe closed, child reaped
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def start(cls, git: Git, *, always: bool = False) -> GroupAside | None:
        """Fork the grouping child, or None where the app should group in its own process:
        not Linux (where a fork without exec is not safe for every library), other threads
        running (a fork copies only this one, and any lock another holds would stay held in
        the child), a session already saved, or no core idle (unless ``always``): on a busy
        machine two processes take turns at the same cores, and the child's opening the
        session again is only more work."""
        if not sys.platform.startswith("linux") or threading.active_count() > 1:
            return None
        if (Path(git.git_dir) / FOLDER / STATE_FILE).exists():
            return None
        if not always and not core_idle():
            return None
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            _child(git.root, write)
        os.close(write)
        return cls(pid, read)

    def frames(self) -> Iterator[tuple[bytes, bytes]]:
        """The child's frames until it closes the pipe (blocking: a worker thread reads them)."""
        with os.fdopen(self.fd, "rb") as pipe:
            while True:
                head = pipe.read(HEADER)
                if len(head) < HEADER:
                    return
                size = int.from_bytes(head[1:], "big")
                yield head[:1], pipe.read(size)

    def follow(self, progress: Callable[[int, int, str], None], grouped: Callable[[], object]) -> bool:
        """Read the child's frames: ``progress`` as it groups, ``grouped`` once the groups are
        saved; keep the evidence. Then reap it; whether it grouped."""
        said_grouped = False
        try:
            for kind, payload in self.frames():
                if kind == PROGRESS:
                    done, total, text = json.loads(payload)
                    progress(done, total, text)
                elif kind == GROUPED:
                    said_grouped = True
                    grouped()
                elif kind == EVIDENCE:
                    self.evidence = payload
            self.reap()
        finally:
            self._ended.set()
        return said_grouped

    def reap(self) -> None:
        with self._lock:
            if self.status is not None:
                return
            try:
                _, self.status = os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped by someone else's wait: it is gone all the same
                self.status = -1

    def stop(self) -> None:
        """Quitting while the child works: end it (its lock goes with it; its saves are atomic)."""
        self.stopped = True
        with self._lock:
            if self.status is not None:
                return
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.reap()
        self._ended.set()

    def take_evidence(self, session) -> bool:
        """Give the session the evidence the child made, unless it has its own: it is keyed by
        the changes it was made of, so the confidence uses it only if they are still the same.
        False when the app is quitting (nothing is worth working out then)."""
        self._ended.wait(EVIDENCE_WAIT)  # it comes just after the groups: worth waiting for
        data, self.evidence = self.evidence, None
        if data is not None and session.evidence_cache is None:
            session.evidence_cache = pickle.loads(data)
        return not self.stopped


def core_idle() -> bool:
    """Whether a core is likely free for the child: the last minute's load average
    leaves one (as ``make -l`` reads it), or, since that average lags a minute behind
    (a build that has just ended still counts), the processes runnable this instant do."""
    spare = (os.cpu_count() or 1) - 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        return False
    return load <= spare or runnable_now() <= spare


def runnable_now() -> int:
    """Processes runnable at this instant, this one included (Linux's ``/proc/loadavg``);
    a large number where it cannot be read."""
    try:
        return int(Path("/proc/loadavg").read_text().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return 1 << 16


def _child(root: str, fd: int) -> None:
    """Open the session, group it, send what the app needs; exit without running the parent's
    exit handlers or flushing its buffers."""
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for target in (0, 1, 2):  # the terminal is the app's
            os.dup2(devnull, target)
        # Nothing else of the app's: an inherited descriptor of a session lock held in the
        # app would keep that lock held for as long as this process lives.
        os.closerange(3, fd)
        os.closerange(fd + 1, os.sysconf("SC_OPEN_MAX"))
        with os.fdopen(fd, "wb") as pipe:
            _group(root, pipe)
        code = 0
    except BaseException:  # noqa: BLE001 - the app groups by itself when the child fails
        pass
    finally:
        os._exit(code)


def _group(root: str, pipe) -> None:
    from segmint_core.session.session import Session

    def send(kind: bytes, payload: bytes = b"") -> None:
        pipe.write(kind + len(payload).to_bytes(HEADER - 1, "big") + payload)
        pipe.flush()

    last = [0.0]

    def progress(done: int, total: int, text: str) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or done >= total:
            last[0] = now
            send(PROGRESS, json.dumps([done, total, text]).encode())

    session = Session.open(root)
    if not session.groups and session.changes:
        session.regroup(progress=progress)
    send(GROUPED)
    if session.evidence_cache is not None:
        send(EVIDENCE, pickle.dumps(session.evidence_cache, protocol=pickle.HIGHEST_PROTOCOL))
