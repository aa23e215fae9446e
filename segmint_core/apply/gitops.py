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
from pathlib import Path

from segmint_core.apply.states import FileState
from segmint_core.errors import GitCommandError, RefusedError
from segmint_core.git import ZERO_OID, Git

LOCK_WAIT_SECONDS = 3.0


class IndexLocked(RefusedError):
    """Another git process holds ``index.lock``."""


@contextmanager
def index_lock(git: Git, wait: float = LOCK_WAIT_SECONDS):
    """Hold ``.git/index.lock`` (retrying while another git process holds it).

    Yields the path of the real index; the caller replaces it while locked.
    """
    index = Path(git.git_dir) / "index"
    lock = index.with_name("index.lock")
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            if time.monotonic() >= deadline:
                raise IndexLocked(
                    f"Another git process holds {lock} (waited {wait:.0f} s); try again, "
                    "or remove the file if no git process is running"
                ) from None
            time.sleep(0.05)
    os.close(fd)
    try:
        yield index
    finally:
        try:
            os.unlink(lock)
        except FileNotFoundError:
            pass


def write_blobs(git: Git, contents: Iterable[bytes]) -> list[str]:
    """Store each content as a blob exactly as given (no filters); their ids."""
    items = list(contents)
    if not items:
        return []
    with tempfile.TemporaryDirectory(prefix="segmint-blobs-", dir=_scratch_root(git)) as tmp:
        paths = []
        for n, data in enumerate(items):
            path = os.path.join(tmp, str(n))
            with open(path, "wb") as fh:
                fh.write(data)
            paths.append(path)
        out = git.run("hash-object", "-w", "--no-filters", "--stdin-paths",
                      input=("\n".join(paths) + "\n").encode())
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


def read_blobs(git: Git, oids: list[str]) -> dict[str, bytes]:
    """Contents of blobs by id, in one ``git cat-file --batch``."""
    wanted = sorted(set(oids))
    if not wanted:
        return {}
    out = git.run("cat-file", "--batch", input=("\n".join(wanted) + "\n").encode()).stdout
    result: dict[str, bytes] = {}
    pos = 0
    for oid in wanted:
        eol = out.index(b"\n", pos)
        header = out[pos:eol].split()
        pos = eol + 1
        if len(header) < 3 or header[1] == b"missing":
            raise GitCommandError(f"object {oid} is missing from the repository")
        size = int(header[2])
        result[oid] = out[pos:pos + size]
        pos += size + 1
    return result


def head_entries(git: Git, head: str | None, paths: list[str]) -> dict[str, tuple[str, str]]:
    """``path -> (mode, oid)`` in HEAD for the given paths."""
    if head is None or not paths:
        return {}
    out = git.run("ls-tree", "-z", "--full-tree", head, "--", *paths).stdout
    entries: dict[str, tuple[str, str]] = {}
    for row in out.split(b"\0"):
        if not row:
            continue
        meta, name = row.split(b"\t", 1)
        mode, _kind, oid = meta.decode().split()
        entries[name.decode("utf-8", "surrogateescape")] = (mode, oid)
    return entries


def update_index(git: Git, index_file: str, entries: list[tuple[FileState, str | None]]) -> None:
    """Write entries (state, blob id) into the index at ``index_file``."""
    rows = []
    for state, oid in entries:
        path = state.path.encode("utf-8", "surrogateescape")
        if state.absent:
            rows.append(b"0 " + ZERO_OID.encode() + b"\t" + path)
        else:
            rows.append(f"{state.mode} {oid}".encode() + b"\t" + path)
    if rows:
        git.run("update-index", "-z", "--index-info", input=b"\0".join(rows) + b"\0",
                env={"GIT_INDEX_FILE": index_file})


def scratch_index(git: Git, head: str | None) -> str:
    """A new index file holding HEAD's tree (empty on an unborn branch)."""
    fd, path = tempfile.mkstemp(prefix="index-", dir=_scratch_root(git))
    os.close(fd)
    os.unlink(path)
    git.run("read-tree", head or "--empty", env={"GIT_INDEX_FILE": path})
    return path


def _scratch_root(git: Git) -> str:
    root = os.path.join(git.git_dir, "segmint", "tmp")
    os.makedirs(root, exist_ok=True)
    return root
