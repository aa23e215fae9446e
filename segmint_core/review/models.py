"""A review message: one comment by a person about a file, a line or a hunk."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from segmint_core.errors import SegmintError
from segmint_core.wording import readable

MAX_COMMENT = 20_000  # characters; a comment is a note, not a file
MAX_PATH = 4_096


@dataclass(frozen=True)
class ReviewMessage:
    file: str  # relative to project_root, with "/" separators
    comment: str
    project_root: str  # the repository's top folder, absolute
    time: str  # ISO 8601 UTC to the second: 2025-07-01T10:30:00Z
    line: int | None = None
    hunk_id: str | None = None

    @property
    def id(self) -> str:
        """SHA-256 of file, line, comment and time: the same comment sent twice in one second is one message."""
        key = json.dumps([self.file, self.line, self.comment, self.time], ensure_ascii=False)
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "file": self.file,
            "line": self.line,
            "hunk_id": self.hunk_id,
            "comment": self.comment,
            "project_root": self.project_root,
            "time": self.time,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ReviewMessage | None:
        """The message, or None for an entry that is not one (a damaged file loses that entry only)."""
        if not isinstance(data, dict):
            return None
        texts = [data.get(k) for k in ("file", "comment", "project_root", "time")]
        present = [v for v in texts if isinstance(v, str) and v]
        if len(present) != len(texts):
            return None
        file, comment, root, time = present
        line, hunk_id = data.get("line"), data.get("hunk_id")
        if line is not None and (isinstance(line, bool) or not isinstance(line, int) or line < 1):
            return None
        if hunk_id is not None and not isinstance(hunk_id, str):
            return None
        return cls(readable(file), readable(comment), root, time, line, hunk_id)  # (as an older version saved it)


def new_message(
    file: str,
    comment: str,
    project_root: str,
    *,
    line: int | None = None,
    hunk_id: str | None = None,
    now: datetime | None = None,
) -> ReviewMessage:
    """A checked message stamped with the current time; bad input raises ``SegmintError``."""
    if not isinstance(comment, str) or not comment.strip():
        raise SegmintError("A review comment cannot be empty")
    if len(comment) > MAX_COMMENT:
        raise SegmintError(f"A review comment can be at most {MAX_COMMENT:,} characters, not {len(comment):,}")
    if line is not None and (isinstance(line, bool) or not isinstance(line, int) or line < 1):
        raise SegmintError(f"A line number must be a positive integer, not {line!r}")
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    # Bytes that are not UTF-8 (a Latin-1 file name) as \xNN: the agent reads the message as JSON.
    return ReviewMessage(
        readable(project_path(file, project_root)), readable(comment.strip("\n")), project_root, stamp, line, hunk_id
    )


def project_path(file: str, project_root: str) -> str:
    """``file`` relative to the project, from a relative path or an absolute one inside it."""
    if not isinstance(file, str) or not file.strip() or len(file) > MAX_PATH or "\n" in file or "\0" in file:
        raise SegmintError("A review message needs the path of a file in the repository")
    path = file.strip()
    if os.path.isabs(path):
        path = os.path.relpath(os.path.normpath(path), project_root)
    rel = os.path.normpath(path).replace(os.sep, "/")
    if rel == ".":
        raise SegmintError(f"{file} is the repository itself: a review message is about a file in it")
    if rel == ".." or rel.startswith("../"):
        raise SegmintError(f"{file} is outside the repository {project_root}")
    return rel
