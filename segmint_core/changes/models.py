"""The change model: files (Change) made of hunks (Hunk), and their wire shapes.

Text is kept exactly as git wrote it (decoded with ``surrogateescape``), so a
patch rebuilt from the model is byte-identical to git's. On the wire (JSON, MCP)
undecodable bytes are shown as ``\\xNN`` escapes, so output is always valid UTF-8.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

ADDED = "added"
MODIFIED = "modified"
DELETED = "deleted"
RENAMED = "renamed"
COPIED = "copied"
BINARY = "binary"
CONFLICTED = "conflicted"

STATUSES = (ADDED, MODIFIED, DELETED, RENAMED, COPIED, BINARY, CONFLICTED)

NO_NEWLINE_PREFIX = "\\"

_SURROGATE = re.compile("[\udc80-\udcff]")


def wire_text(text: str) -> str:
    """``text`` made safe for JSON: undecodable bytes as visible ``\\xNN``."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def wire_lines(lines: list[str]) -> list[str]:
    for line in lines:
        if _SURROGATE.search(line):
            return [wire_text(x) for x in lines]
    return lines


@dataclass(slots=True)
class Hunk:
    """A contiguous region of changed lines, as in git's ``@@`` sections.

    ``lines`` keep their ``+``/``-``/`` `` prefix and any ``\\ No newline`` marker.
    A hunk split by grouping carries ``parent_id`` (the git hunk it came from).
    """

    id: str
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    header: str
    lines: list[str]
    staged: bool = False
    parent_id: str | None = None

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line[:1] == "+")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line[:1] == "-")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "old_start": self.old_start,
            "old_lines": self.old_lines,
            "new_start": self.new_start,
            "new_lines": self.new_lines,
            "header": wire_text(self.header),
            "lines": wire_lines(self.lines),
            "staged": self.staged,
        }
        if self.parent_id is not None:
            data["parent_id"] = self.parent_id
        return data


@dataclass(slots=True)
class FilePatch:
    """One file's section of one diff (staged or unstaged), as parsed.

    ``header_lines`` are the raw lines from ``diff --git`` up to the first hunk
    (mode, rename, index, ``---``/``+++``, binary markers), kept for rebuilding.
    """

    old_path: str | None
    new_path: str | None
    status: str
    binary: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    old_oid: str | None = None
    new_oid: str | None = None
    similarity: int | None = None
    header_lines: list[str] = field(default_factory=list)
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The path this file has after the change (the old one if deleted)."""
        return self.new_path if self.new_path is not None else (self.old_path or "")


@dataclass(slots=True)
class Change:
    """One file's uncommitted change: its staged and unstaged hunks, merged."""

    id: str
    file_path: str
    old_path: str | None
    status: str
    binary: bool
    hunks: list[Hunk]
    old_mode: str | None = None
    new_mode: str | None = None
    staged_patch: FilePatch | None = None
    unstaged_patch: FilePatch | None = None
    untracked: bool = False

    @property
    def added(self) -> int:
        return sum(h.added for h in self.hunks)

    @property
    def removed(self) -> int:
        return sum(h.removed for h in self.hunks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "file_path": wire_text(self.file_path),
            "old_path": wire_text(self.old_path) if self.old_path is not None else None,
            "status": self.status,
            "binary": self.binary,
            "hunks": [h.to_dict() for h in self.hunks],
            "old_mode": self.old_mode,
            "new_mode": self.new_mode,
            "untracked": self.untracked,
        }
