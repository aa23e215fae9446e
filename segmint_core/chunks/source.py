"""Where a diff comes from: a file named by an absolute path, or ``working-tree``.

Paths are checked and canonicalized here (``~`` expanded, symlinks resolved), so
one file reached by two paths is one session. A file is read whole;
gzip-compressed diffs are decompressed (the session store hashes the bytes on disk).
"""

from __future__ import annotations

import errno
import gzip
import os
import stat
import zlib
from dataclasses import dataclass
from typing import NamedTuple

from segmint_core.chunks.errors import DiffFileError

WORKING_TREE = "working-tree"
GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class DiffFile:
    path: str  # canonical
    raw: bytes  # as on disk
    data: bytes  # decompressed when the file was gzip
    compressed: bool


def is_working_tree(given: str) -> bool:
    return given.strip() == WORKING_TREE


def canonical_path(given: str) -> str:
    """The canonical form of an absolute path; a clear error for anything else."""
    if not isinstance(given, str) or not given.strip():
        raise DiffFileError("absolute_file_path must be a non-empty absolute path to a diff file, or 'working-tree'.")
    if "\0" in given:
        raise DiffFileError("absolute_file_path cannot hold a NUL byte: no file name can.")
    expanded = os.path.expanduser(given.strip())
    if not os.path.isabs(expanded):
        raise DiffFileError(
            f"absolute_file_path must be an absolute path, not {given.strip()!r}; "
            "give the full path to the diff file, or 'working-tree'."
        )
    return os.path.realpath(expanded)


class FileStamp(NamedTuple):
    """What changes when a file is rewritten, as git's index records it."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int


def file_stamp(path: str) -> FileStamp:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if stat.S_ISDIR(st.st_mode):
        raise DiffFileError(f"{path} is a directory, not a diff file.")
    if not stat.S_ISREG(st.st_mode):  # a FIFO or a device would block or never end
        raise DiffFileError(f"{path} is not a regular file, so it cannot be read as a diff file.")
    return FileStamp(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_diff_file(path: str) -> DiffFile:
    """The bytes of the diff file at canonical ``path``."""
    file_stamp(path)  # the checks: it exists, and is a regular file
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if not raw.startswith(GZIP_MAGIC):
        return DiffFile(path, raw, raw, False)
    try:
        return DiffFile(path, raw, gzip.decompress(raw), True)
    except (OSError, EOFError, zlib.error):
        raise DiffFileError(f"{path} looks gzip-compressed but cannot be decompressed.") from None


def _unreadable(path: str, exc: OSError) -> DiffFileError:
    if isinstance(exc, FileNotFoundError):
        return DiffFileError(f"Diff file not found: {path}.")
    if isinstance(exc, PermissionError):
        return DiffFileError(f"Cannot read {path}: permission denied.")
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "unknown error")
    return DiffFileError(f"Cannot read {path}: {reason}.")
