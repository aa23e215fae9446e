"""Replacing a file atomically: readers see the old content or the new, never half.

The new content goes to a temporary file beside the target (created 0600,
readable by the user alone), is flushed to disk, and is renamed over it. A
saved file that cannot be read is set aside beside it, never overwritten.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not exc.filename:  # (a failed flush names no file)
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise


UNREADABLE = ".unreadable"  # suffix of a saved file set aside: what it held stays there to read


def set_aside(path: Path) -> Path | None:
    """Keep an unreadable saved file as ``<name>.unreadable`` (the last one); where it now is."""
    aside = path.with_name(path.name + UNREADABLE)
    try:
        path.replace(aside)
    except OSError:
        return None  # a read-only folder: starting over all the same
    return aside
