"""Loaded diffs, one session per source, reloaded when the source changes.

A session is keyed by its source (a canonical file path, or ``working-tree``)
and remembers the content hash it was built from (sha-256 of the file, or the
working tree's change fingerprint). Every access re-hashes the source; a
changed one is loaded again with the options it was last loaded with.
"""

from __future__ import annotations

import hashlib
import os
import threading
from typing import Callable

from segmint_core.changes.capture import capture
from segmint_core.chunks.loader import load_file, load_working_tree
from segmint_core.chunks.models import DiffSession, LoadOptions
from segmint_core.chunks.source import WORKING_TREE, canonical_path, is_working_tree, read_diff_file
from segmint_core.errors import NotARepositoryError
from segmint_core.git import Git


class SessionStore:
    """The sessions of one ``ChunkService``; safe to use from several threads."""

    def __init__(self, repo_root: str | os.PathLike[str] | None = None) -> None:
        self._repo_root = os.fspath(repo_root) if repo_root is not None else None
        self._git: Git | None = None
        self._sessions: dict[str, DiffSession] = {}
        self._lock = threading.RLock()

    def load(self, given: str, options: LoadOptions) -> DiffSession:
        """Load ``given`` anew with ``options``."""
        with self._lock:
            if is_working_tree(given):
                git = self.git()
                return self._store(load_working_tree(capture(git), git.root, options))
            diff = read_diff_file(canonical_path(given))
            return self._store(load_file(diff, options, hash_meanwhile(diff.raw)))

    def get(self, given: str) -> DiffSession:
        """The session for ``given``, loaded or reloaded as needed (auto-loading)."""
        with self._lock:
            if is_working_tree(given):
                return self._current_working_tree()
            return self._current_file(canonical_path(given))

    def _current_file(self, path: str) -> DiffSession:
        diff = read_diff_file(path)
        content_hash = sha256(diff.raw)
        previous = self._sessions.get(path)
        if previous is not None and previous.content_hash == content_hash:
            return previous
        options = previous.options if previous is not None else LoadOptions()
        return self._store(load_file(diff, options, lambda: content_hash))

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
