"""What the tools work on: the session (given, or opened on first use) and the feature services."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from collections.abc import Sequence
from typing import Any, TypeVar

import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

from segmint_core.chunks.service import ChunkService
from segmint_core.errors import SegmintError
from segmint_core.roots import AllowedRoots, allowed_folders
from segmint_core.session.calls import Abandoned, abandonable
from segmint_core.session.session import Session
from segmint_core.trajectory.service import TrajectoryService

T = TypeVar("T")


class SessionRef:
    """The session the tools act on.

    Embedded, it is the TUI's session. Headless, it is opened on first use, so
    ``segmint mcp`` started outside a repository still serves, and every
    session tool answers with the reason ("Not a git repository ...") until
    it can open one. ``on_open`` runs once, with the session, when it opens.
    """

    def __init__(
        self,
        session: Session | None = None,
        *,
        repo: str | None = None,
        on_open: Callable[[Session], None] | None = None,
    ) -> None:
        self._session = session
        self._repo = repo
        self._lock = threading.Lock()
        self.on_open = on_open

    @property
    def current(self) -> Session | None:
        return self._session

    def get(self) -> Session:
        """The session; raises ``SegmintError`` if there is no repository to open."""
        if self._session is not None:
            return self._session
        with self._lock:
            if self._session is None:
                session = Session.open(self._repo)
                if self.on_open is not None:
                    self.on_open(session)
                self._session = session
        return self._session


class Services:
    """The session and the services behind the tools, shared by every connection.

    The tools that take a path from the agent keep to the session's repository
    and the ``allowed_roots`` a person gave (``--allow-root``).
    """

    def __init__(
        self,
        sessions: SessionRef,
        *,
        chunks: ChunkService | None = None,
        trajectory: TrajectoryService | None = None,
        repo: str | None = None,
        allowed_roots: Sequence[str] = (),
    ) -> None:
        self.sessions = sessions
        root = sessions.current.git.root if sessions.current is not None else repo
        roots = AllowedRoots(self._repository, allowed_folders(allowed_roots))
        self.chunks = chunks or ChunkService(root, roots=roots)
        self.trajectory = trajectory or TrajectoryService(roots=roots)
        self.chunk_lock = threading.Lock()  # the chunk store is not meant for concurrent calls

    @property
    def session(self) -> Session:
        return self.sessions.get()

    def _repository(self) -> str | None:
        try:
            return self.sessions.get().git.root
        except SegmintError:  # not a repository: only the allowed folders are open
            return None


@contextlib.contextmanager
def at_revision(session: Session, revision: int | None) -> Iterator[None]:
    """Hold the session's lock from the ``revision`` check through the edit in the block.

    Entering the lock takes up what another process saved (a TUI that re-read the
    tree), so ids read before that are refused, and no re-read slips in between.
    """
    with session.lock:
        session.check_revision(revision)
        yield


async def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run blocking work (git, the session's lock, models) off the event loop.

    The event loop may be the TUI's: a session call waiting for the lock the
    person's own action holds must never freeze the screen.

    A request the client cancels (``notifications/cancelled``) has its task
    cancelled by the SDK, which then waits for the thread: from then on no
    session edit of the call begins, and what its earlier edits changed is put
    back (``session.calls``), so the call leaves the session as it was.
    """

    def run() -> T:
        with abandonable(_cancelled):
            return fn(*args, **kwargs)

    try:
        return await anyio.to_thread.run_sync(run)
    except Abandoned:
        await anyio.lowlevel.checkpoint()  # raises the cancellation that abandoned the call
        raise


def _cancelled() -> bool:
    """Whether the task waiting for this worker thread was cancelled."""
    try:
        anyio.from_thread.check_cancelled()
    except Exception:  # not an anyio worker thread: no task to cancel
        return False
    except BaseException:  # the event loop's cancellation, raised here to say so
        return True
    return False
