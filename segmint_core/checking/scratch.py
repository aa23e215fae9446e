"""Scratch work trees under ``.git/segmint/check/``: where a check command runs.

Each holds one commit's files, written by git from the commit's tree with an
index of its own; the next commit's tree is written over it (git rewrites only
the files that differ). The person's work tree, index and HEAD are never read
or written here. A scratch tree is removed when its check ends, however it
ends; one whose process was killed outright is found by the next check (its
lock is free) and removed then, with the command still running in it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
from pathlib import Path

from segmint_core.git import Git

PREFIX = "tree-"


def check_folder(git: Git) -> Path:
    folder = Path(git.git_dir) / "segmint" / "check"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class ScratchTree:
    """One scratch work tree, locked while this process uses it."""

    def __init__(self, git: Git, folder: Path, number: int) -> None:
        self.git = git
        self.name = f"{PREFIX}{os.getpid()}-{number}"
        self.path = folder / self.name
        self.index = folder / f"{self.name}.index"
        self.lock = folder / f"{self.name}.lock"
        self.tree: str | None = None
        self._fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        self.path.mkdir(exist_ok=True)

    def show(self, tree: str) -> None:
        """Make the scratch tree hold ``tree``'s files (only those that differ are written)."""
        if tree == self.tree:
            return
        self.git.run(
            f"--work-tree={self.path}", "read-tree", "--reset", "-u", tree, env={"GIT_INDEX_FILE": str(self.index)}
        )
        self.tree = tree

    def running(self, pgid: int | None) -> None:
        """Say which process group runs in the tree, for the next check to end should this one be killed."""
        os.ftruncate(self._fd, 0)
        if pgid is not None:
            os.pwrite(self._fd, str(pgid).encode(), 0)

    def remove(self) -> None:
        _remove(self.path, self.index)
        try:
            os.unlink(self.lock)
        finally:
            os.close(self._fd)

    def __enter__(self) -> "ScratchTree":
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def sweep(folder: Path) -> list[str]:
    """Remove the scratch trees of checks that were killed (their lock is free); their names."""
    removed = []
    for lock in sorted(folder.glob(f"{PREFIX}*.lock")):
        fd = os.open(lock, os.O_RDWR)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a check running now
            _end_group(os.pread(fd, 32, 0))
            name = lock.name[: -len(".lock")]
            _remove(folder / name, folder / f"{name}.index")
            os.unlink(lock)
            removed.append(name)
        finally:
            os.close(fd)
    return removed


def _end_group(text: bytes) -> None:
    """End a check command left running by a check that was killed."""
    try:
        pgid = int(text.strip() or b"0")
        if pgid > 1:
            os.killpg(pgid, signal.SIGKILL)
    except (ValueError, ProcessLookupError, PermissionError):
        pass


def _remove(path: Path, index: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
    for leftover in (index, Path(f"{index}.lock")):
        try:
            os.unlink(leftover)
        except FileNotFoundError:
            pass
