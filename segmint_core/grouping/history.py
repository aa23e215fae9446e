"""Which files the repository has changed together, from its recent first-parent history.

The first-parent history (``segmint_core.history``) from a commit (HEAD for a
session; a benchmark case's base, so a case never sees its own commits): the files each
of the last ``HISTORY_COMMITS`` commits touched. A sweep, a commit touching
more than ``SWEEP_FILES`` files (reformatting, a folder renamed, a release),
says nothing about which files belong together and is left out. Renames are
not followed: a renamed file starts a new history (a rename counts both paths).

Read once per commit id: kept in memory, and under ``.git/segmint/`` when a
session has made that folder, the way the messages' house style is.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_core.history import PastCommit
from segmint_core.history import read_history as first_parent_history

HISTORY_COMMITS = 1000
SWEEP_FILES = 40
CACHE_NAME = "cochange.json"
CACHE_VERSION = 1
MEMORY = 8  # histories kept in memory (one per commit id)


@dataclass(frozen=True)
class History:
    """The files of each commit read, newest first, sweeps left out."""

    head: str | None = None
    commits: tuple[tuple[str, ...], ...] = ()
    swept: int = 0  # commits read and left out as sweeps

    @property
    def read(self) -> int:
        """Commits read, sweeps included: the "last N commits" reasons speak of."""
        return len(self.commits) + self.swept

    @property
    def sizes(self) -> tuple[int, ...]:
        """Files touched by each commit read, a sweep counted as ``SWEEP_FILES + 1`` (the one-intent
        gate's measure of how large this house's commits run)."""
        return tuple(len(c) for c in self.commits) + (SWEEP_FILES + 1,) * self.swept

    @cached_property
    def by_file(self) -> dict[str, frozenset[int]]:
        """Per path, the commits (indexes into ``commits``) that changed it."""
        return _index(self.commits, lambda path: path)

    @cached_property
    def by_folder(self) -> dict[str, frozenset[int]]:
        """Per folder (``""`` for the top level), the commits that changed a file directly in it."""
        return _index(self.commits, folder_of)

    def to_dict(self) -> dict:
        return {
            "version": CACHE_VERSION,
            "head": self.head,
            "swept": self.swept,
            "commits": [list(c) for c in self.commits],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "History":
        return cls(data["head"], tuple(tuple(c) for c in data["commits"]), int(data["swept"]))


EMPTY = History()
_memory: OrderedDict[tuple[str, str], History] = OrderedDict()


def folder_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def history_at(git: Git | None, rev: str = "HEAD") -> History:
    """The history ending at ``rev`` (HEAD: the checked-out commit), from memory or
    ``.git/segmint/`` when read before; ``EMPTY`` without commits or a repository."""
    if git is None:
        return EMPTY
    try:
        head = git.commit_id(rev)
        if head is None:
            return EMPTY
        key = (git.git_dir, head)
        if key in _memory:
            _memory.move_to_end(key)
            return _memory[key]
        cache = Path(git.git_dir) / "segmint" / CACHE_NAME
        history = _load(cache, head)
        if history is None:
            history = read_history(git, head)
            if cache.parent.is_dir():  # a session's folder: the next run reads it from there
                _save(cache, history)
    except (OSError, SegmintError):
        return EMPTY  # a work tree gone or unreadable: grouping goes on without history
    _memory[key] = history
    while len(_memory) > MEMORY:
        _memory.popitem(last=False)
    return history


def read_history(git: Git, rev: str, limit: int = HISTORY_COMMITS, sweep: int = SWEEP_FILES) -> History:
    """The files of up to ``limit`` first-parent commits ending at ``rev`` (a merge read
    against its first parent; a rename as both its paths). A shallow clone simply has fewer."""
    past = first_parent_history(git, rev, limit=limit)
    commits: list[tuple[str, ...]] = []
    swept = 0
    for commit in past:
        paths = commit_paths(commit)
        if len(paths) > sweep:
            swept += 1
        elif paths:
            commits.append(paths)
    return History(past[0].sha if past else None, tuple(commits), swept) if past else EMPTY


def commit_paths(commit: PastCommit) -> tuple[str, ...]:
    """The paths a commit touched, a rename as both its paths."""
    return tuple(sorted({f.path for f in commit.files} | {f.old_path for f in commit.files if f.old_path}))


def _index(commits: tuple[tuple[str, ...], ...], key) -> dict[str, frozenset[int]]:
    seen: dict[str, set[int]] = {}
    for n, paths in enumerate(commits):
        for path in paths:
            seen.setdefault(key(path), set()).add(n)
    return {name: frozenset(found) for name, found in seen.items()}


def _load(cache: Path, head: str) -> History | None:
    try:
        data = json.loads(cache.read_text("utf-8"))
        if data.get("version") == CACHE_VERSION and data.get("head") == head:
            return History.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # missing or unreadable: read the log again
    return None


def _save(cache: Path, history: History) -> None:
    try:
        write_atomic(cache, json.dumps(history.to_dict()).encode())
    except OSError:
        pass  # a read-only .git is read again next time
