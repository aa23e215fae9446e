"""Loaded diffs, one session per source, reloaded when the source changes.

A session is keyed by its source (a canonical file path, or ``working-tree``)
and remembers the content hash it was built from (sha-256 of the file, or the
working tree's change fingerprint). Every access checks the source; a changed
one is loaded again with the options it was last loaded with.

Re-hashing a 9 MB diff costs more than reading a chunk of it, so a file whose
stat (inode, size, mtime, ctime) is as it was when last read is taken as
unchanged, as git does for its index, unless its mtime is within RACY_NS of
that read: then it may have been written again in the same clock tick, and is
hashed anew.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from typing import Callable

from segmint_core.changes.capture import capture
from segmint_core.chunks.loader import load_file, load_working_tree
from segmint_core.chunks.models import DiffSession, LoadOptions
from segmint_core.chunks.source import (
    WORKING_TREE,
    DiffFile,
    FileStamp,
    canonical_path,
    file_stamp,
    is_working_tree,
    read_diff_file,
)
from segmint_core.errors import NotARepositoryError
from segmint_core.git import Git
from segmint_core.roots import AllowedRoots


RACY_NS = 2_000_000_000  # two seconds: the coarsest mtime of common file systems


class SessionStore:
    """The sessions of one ``ChunkService``; safe to use from several threads.

    With ``roots``, a diff file outside them is refused (``working-tree`` is always the repository).
    """

    def __init__(self, repo_root: str | os.PathLike[str] | None = None, roots: AllowedRoots | None = None) -> None:
        self._repo_root = os.fspath(repo_root) if repo_root is not None else None
        self._roots = roots
        self._git: Git | None = None
        self._sessions: dict[str, DiffSession] = {}
        self._seen: dict[str, tuple[FileStamp, int]] = {}  # path -> (stamp, time read)
        self._lock = threading.RLock()

    def load(self, given: str, options: LoadOptions) -> DiffSession:
        """Load ``given`` anew with ``options``."""
        with self._lock:
            if is_working_tree(given):
                git = self.git()
                return self._store(load_working_tree(capture(git), git.root, options))
            diff = self._read(self._file_path(given))
            return self._store(load_file(diff, options, hash_meanwhile(diff.raw)))

    def get(self, given: str) -> DiffSession:
        """The session for ``given``, loaded or reloaded as needed (auto-loading)."""
        with self._lock:
            if is_working_tree(given):
                return self._current_working_tree()
            return self._current_file(self._file_path(given))

    def _file_path(self, given: str) -> str:
        path = canonical_path(given)
        if self._roots is not None:
            self._roots.check(os.path.expanduser(given.strip()))
        return path

    def _current_file(self, path: str) -> DiffSession:
        previous = self._sessions.get(path)
        if previous is not None and self._unchanged_since_read(path):
            return previous
        diff = self._read(path)
        content_hash = sha256(diff.raw)
        if previous is not None and previous.content_hash == content_hash:
            return previous
        options = previous.options if previous is not None else LoadOptions()
        return self._store(load_file(diff, options, lambda: content_hash))

    def _read(self, path: str) -> DiffFile:
        stamp, now = file_stamp(path), time.time_ns()
        diff = read_diff_file(path)
        self._seen[path] = (stamp, now)
        return diff

    def _unchanged_since_read(self, path: str) -> bool:
        seen = self._seen.get(path)
        if seen is None:
            return False
        stamp, read_at = seen
        return file_stamp(path) == stamp and stamp.mtime_ns + RACY_NS < read_at

    def _current_working_tree(self) -> DiffSession:
        git = self.git()
        changes = capture(git)
        previous = self._sessions.get(WORKING_TREE)
        if previous is not None and previous.content_hash == changes.fingerprint:
            return previous
        options = previous.options if previous is not None else LoadOptions()
        return self._store(load_working_tree(changes, git.root, options))

    def sessions(self) -> list[DiffSession]:
        with self._lock:
            return [self._sessions[k] for k in sorted(self._sessions)]

    def git(self) -> Git:
        if self._git is None:
            try:
                self._git = Git.discover(self._repo_root)
            except NotARepositoryError:
                where = os.path.abspath(self._repo_root if self._repo_root is not None else os.getcwd())
                raise NotARepositoryError(
                    f"'working-tree' needs a git repository, and {where} is not inside one."
                ) from None
        return self._git

    def _store(self, session: DiffSession) -> DiffSession:
        self._sessions[session.source] = session
        return session


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hash_meanwhile(data: bytes) -> Callable[[], str]:
    """Start hashing ``data`` in a thread; call the result to wait for the digest.

    hashlib lets go of the GIL on large inputs, so the hash of a big diff costs
    no time while the parser runs on the other core.
    """
    digest: list[str] = []
    worker = threading.Thread(target=lambda: digest.append(sha256(data)), daemon=True)
    worker.start()

    def result() -> str:
        worker.join()
        return digest[0]

    return result
