"""Low-level git writes for applying plans: the index lock, blobs, scratch indexes.

Segmint never writes work-tree files. It writes objects (blobs, trees,
commits), a scratch index for the commit, and the real index once, under
git's own lock protocol (``index.lock`` created exclusively, the new index
renamed into place).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from segmint_core.apply.states import FileState
from segmint_core.errors import GitCommandError, RefusedError
from segmint_core.git import Git

LOCK_WAIT_SECONDS = 3.0


class IndexLocked(RefusedError):
    """Another git process holds ``index.lock``."""


@dataclass(frozen=True)
class HeldLock:
    index: Path  # the real index, to replace while the lock is held
    token: str  # what this process wrote into index.lock, to know it for its own later


@contextmanager
def index_lock(git: Git, wait: float = LOCK_WAIT_SECONDS, *, token: str | None = None):
    """Hold ``.git/index.lock`` (retrying while another git process holds it).

    Yields a ``HeldLock``; the caller replaces the index while locked. Git
    only looks at whether the lock file exists, so it is created already
    holding a token naming this process (linked into place, never empty),
    which lets a later run (``journal.finish``) tell a lock a killed Segmint
    left from another git process's.
    """
    index = Path(git.git_dir) / "index"
    lock = index.with_name("index.lock")
    token = token or f"segmint {os.getpid()}-{time.time_ns()}\n"
    fd, filled = tempfile.mkstemp(prefix="lock-", dir=scratch_root(git))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(token.encode())
        os.chmod(filled, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                _create_holding(filled, lock, token)
                break
            except FileExistsError:
                if time.monotonic() >= deadline:
                    raise IndexLocked(
                        f"Another git process holds {lock} (waited {wait:.0f} s); try again, "
                        "or remove the file if no git process is running"
                    ) from None
                time.sleep(0.05)
    finally:
        os.unlink(filled)
    try:
        yield HeldLock(index, token)
    finally:
        try:
            os.unlink(lock)
        except FileNotFoundError:
            pass


def _create_holding(filled: str, lock: Path, token: str) -> None:
    """Create ``lock`` holding ``token``, failing if it exists: a hard link of
    the ready file, or (where links are not allowed) an exclusive create."""
    try:
        os.link(filled, lock)
    except FileExistsError:
        raise
    except OSError:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        try:
            os.write(fd, token.encode())
        finally:
            os.close(fd)


def write_blobs(git: Git, contents: Iterable[bytes]) -> list[str]:
    """Store each content as a blob exactly as given (no filters); their ids."""
    items = list(contents)
    if not items:
        return []
    with tempfile.TemporaryDirectory(prefix="segmint-blobs-", dir=scratch_root(git)) as tmp:
        # Named from the work tree, where git runs, one a line: the repository's own path may hold a
        # newline. (Real paths: ".." from the work tree is its real parent.)
        here = os.path.relpath(os.path.realpath(tmp), os.path.realpath(git.root))
        paths = []
        for n, data in enumerate(items):
            with open(os.path.join(tmp, str(n)), "wb") as fh:
                fh.write(data)
            paths.append(os.path.join(here, str(n)))
        out = git.run("hash-object", "-w", "--no-filters", "--stdin-paths", input=("\n".join(paths) + "\n").encode())
    oids = out.text.split()
    if len(oids) != len(items):
        raise GitCommandError(f"git hash-object returned {len(oids)} ids for {len(items)} blobs")
    return oids


def hash_as_added(git: Git, path: str, data: bytes) -> str:
    """Store ``data`` as ``git add`` would store a file at ``path`` holding it
    (clean filter, eol conversion by the path's attributes); its id."""
    return git.run("hash-object", "-w", "--path", path, "--stdin", input=data).text.strip()


def hash_worktree_file(git: Git, path: str) -> str:
    """Store a work-tree file as ``git add`` would (with its filters); its id."""
    return git.run("hash-object", "-w", "--path", path, "--", os.path.join(git.root, path)).text.strip()


LITERAL = {"GIT_LITERAL_PATHSPECS": "1"}  # every path argument names that one path, never a pattern


def head_entries(git: Git, head: str | None, paths: list[str]) -> dict[str, tuple[str, str]]:
    """``path -> (mode, oid)`` in HEAD for the given paths."""
    if head is None or not paths:
        return {}
    # Literal: ls-tree takes no `:(literal)` magic, and would read a name like `:(glob)*.txt` as some.
    out = git.run("ls-tree", "-z", "--full-tree", head, "--", *paths, env=LITERAL).stdout
    entries: dict[str, tuple[str, str]] = {}
    for row in out.split(b"\0"):
        if not row:
            continue
        meta, name = row.split(b"\t", 1)
        mode, kind, oid = meta.decode().split()
        if kind != "tree":  # a folder HEAD has where the work tree now has a file: no file there before
            entries[name.decode("utf-8", "surrogateescape")] = (mode, oid)
    return entries


def update_index(git: Git, index_file: str, entries: list[tuple[FileState, str | None]]) -> None:
    """Write entries (state, blob id) into the index at ``index_file``."""
    rows = []
    for state, oid in entries:
        path = state.path.encode("utf-8", "surrogateescape")
        if state.absent:
            rows.append(b"0 " + git.zero_oid.encode() + b"\t" + path)
        else:
            rows.append(f"{state.mode} {oid}".encode() + b"\t" + path)
    if rows:
        git.run(
            "update-index", "-z", "--index-info", input=b"\0".join(rows) + b"\0", env={"GIT_INDEX_FILE": index_file}
        )


def move_head(git: Git, current: str | None, to: str | None, why: str) -> None:
    """Point HEAD (its branch) from ``current`` to ``to``, refusing if it is not at ``current``;
    None for either is an unborn branch."""
    if to:
        git.run("update-ref", "-m", why, "HEAD", to, current or "")
    elif current:
        # Back to no commit is a branch with none yet: its ref goes. A detached HEAD has no
        # branch to take away, and deleting HEAD itself would leave no repository.
        branch = git.head_ref()
        if branch is None:
            raise RefusedError(
                f"HEAD is detached at {current[:7]}, a commit with no parent: going back to no commit needs a "
                "branch; check out the branch it was made on, then try again"
            )
        git.run("update-ref", "-d", branch, current)


def scratch_index(git: Git, head: str | None, path: str) -> str:
    """A new index file at ``path`` holding HEAD's tree (empty on an unborn branch)."""
    git.run("read-tree", head or "--empty", env={"GIT_INDEX_FILE": path})
    return path


def scratch_root(git: Git) -> str:
    root = os.path.join(git.git_dir, "segmint", "tmp")
    os.makedirs(root, exist_ok=True)
    return root
