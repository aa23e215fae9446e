"""The change model: files (Change) made of hunks (Hunk), and their wire shapes.

Text is kept exactly as git wrote it (decoded with ``surrogateescape``), so a
patch rebuilt from the model is byte-identical to git's. On the wire (JSON, MCP)
undecodable bytes are shown as ``\\xNN`` escapes, so output is always valid UTF-8.

These classes sit on the start-up path of ``segmint changes`` (budget: 1.5x the
time of git's own diffs), so they are plain slotted classes rather than
``@dataclass``: importing ``dataclasses`` alone costs more than parsing 10k lines.
For the same reason their JSON is written by hand (``to_dict`` here, and the text
encoder of ``segmint changes --json`` in ``encode.py``) rather than derived as the
other wire shapes' is (``segmint_core.wire``); ``segmint_core.mcp.schemas`` writes
the shape down, and the MCP schema test holds both to it.
"""

from __future__ import annotations

import re
from enum import StrEnum  # free here: ``re`` imports ``enum``


class ChangeStatus(StrEnum):
    """What happened to a file; on the wire, its value ("modified")."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"
    BINARY = "binary"
    CONFLICTED = "conflicted"


# The members by their bare names, as the parser and the many callers use them.
ADDED, MODIFIED, DELETED, RENAMED, COPIED, BINARY, CONFLICTED = ChangeStatus
STATUSES = tuple(ChangeStatus)

NO_NEWLINE_PREFIX = "\\"

# Undecodable bytes after decoding with surrogateescape.
SURROGATE = re.compile("[\udc80-\udcff]")


def wire_text(text: str) -> str:
    """``text`` made safe for JSON: undecodable bytes as visible ``\\xNN``."""
    if SURROGATE.search(text) is None:
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def wire_lines(lines: list[str]) -> list[str]:
    if SURROGATE.search("\n".join(lines)) is None:
        return lines
    return [wire_text(x) for x in lines]


class _Record:
    """Equality and repr over ``FIELDS``, for the small data classes below."""

    __slots__ = ()
    FIELDS: tuple[str, ...] = ()

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    # Defining __eq__ leaves __hash__ None: records are mutable, never set members or dict keys.

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.FIELDS)
        return f"{type(self).__name__}({fields})"


class Hunk(_Record):
    """A contiguous region of changed lines, as in git's ``@@`` sections.

    ``lines`` keep their ``+``/``-``/`` `` prefix and any ``\\ No newline`` marker.
    A hunk split by grouping carries ``parent_id`` (the git hunk it came from).

    The parser hands over a hunk's body as the raw bytes git wrote (``body``,
    lines joined by ``\\n``); it is decoded and split into ``lines`` on first
    use, so listing a huge diff never builds line objects nobody reads.

    ``in_string``: the file's old text shows the hunk's changed lines inside a string
    literal (``planning.enclosing``), so their whitespace is the string's, not layout.
    ``in_fence``: a fenced code block is open at a docs hunk's first line there.
    """

    __slots__ = (
        "id",
        "old_start",
        "old_lines",
        "new_start",
        "new_lines",
        "header",
        "staged",
        "parent_id",
        "_lines",
        "body",
        "in_string",
        "in_fence",
    )
    FIELDS = ("id", "old_start", "old_lines", "new_start", "new_lines", "header", "lines", "staged", "parent_id")

    def __init__(
        self,
        id: str,
        old_start: int,
        old_lines: int,
        new_start: int,
        new_lines: int,
        header: str,
        lines: list[str] | None = None,
        staged: bool = False,
        parent_id: str | None = None,
        *,
        body: bytes | None = None,
        in_string: bool = False,
        in_fence: bool = False,
    ) -> None:
        self.id = id
        self.in_string = in_string
        self.in_fence = in_fence
        self.old_start = old_start
        self.old_lines = old_lines
        self.new_start = new_start
        self.new_lines = new_lines
        self.header = header
        self.staged = staged
        self.parent_id = parent_id
        # Exactly one of the two is set: the lines, or the raw unsplit body.
        self._lines = lines if body is None else None
        self.body = body if lines is None else None
        if self._lines is None and self.body is None:
            self._lines = []

    def __setstate__(self, state: tuple) -> None:
        """Unpickled (a bench's kept cases): a hunk pickled before a slot was added gets its default."""
        self.in_string = self.in_fence = False
        _, slots = state
        for name, value in slots.items():
            setattr(self, name, value)

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            assert self.body is not None  # exactly one of the two is set
            self._lines = self.body.decode("utf-8", "surrogateescape").split("\n")
            self.body = None
        return self._lines

    @lines.setter
    def lines(self, value: list[str]) -> None:
        self._lines = value
        self.body = None

    @property
    def size(self) -> int:
        """About how many characters the hunk's lines hold, without splitting a raw body."""
        if self.body is not None:
            return len(self.body)
        return sum(len(line) + 1 for line in self.lines)

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line[:1] == "+")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line[:1] == "-")

    def to_dict(self) -> dict:
        data: dict = {
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


class FilePatch(_Record):
    """One file's section of one diff (staged or unstaged), as parsed.

    ``header_lines`` are the raw lines from ``diff --git`` up to the first hunk
    (mode, rename, index, ``---``/``+++``, binary markers), kept for rebuilding.

    ``unfiltered``: the hunks hold the file's work-tree bytes as they are (an
    untracked file Segmint read itself). Git's own diffs show a work-tree file
    through its clean filter and eol conversion, as ``git add`` would store it.
    """

    FIELDS = (
        "old_path",
        "new_path",
        "status",
        "binary",
        "old_mode",
        "new_mode",
        "old_oid",
        "new_oid",
        "similarity",
        "header_lines",
        "hunks",
    )
    __slots__ = (*FIELDS, "unfiltered")

    def __init__(
        self,
        old_path: str | None,
        new_path: str | None,
        status: str,
        binary: bool = False,
        old_mode: str | None = None,
        new_mode: str | None = None,
        old_oid: str | None = None,
        new_oid: str | None = None,
        similarity: int | None = None,
        header_lines: list[str] | None = None,
        hunks: list[Hunk] | None = None,
    ) -> None:
        self.old_path = old_path
        self.new_path = new_path
        self.status = status
        self.binary = binary
        self.old_mode = old_mode
        self.new_mode = new_mode
        self.old_oid = old_oid
        self.new_oid = new_oid
        self.similarity = similarity
        self.header_lines = [] if header_lines is None else header_lines
        self.hunks = [] if hunks is None else hunks
        self.unfiltered = False

    @property
    def path(self) -> str:
        """The path this file has after the change (the old one if deleted)."""
        return self.new_path if self.new_path is not None else (self.old_path or "")

    @property
    def typechange(self) -> bool:
        """A path whose type changed (file, symlink, submodule). Git shows it as
        the path's deletion then its creation; ``capture`` joins the two into
        one layer: the removal hunks, then the addition hunks (``old_lines == 0``)."""
        return bool(self.old_mode and self.new_mode and self.old_mode[:2] != self.new_mode[:2])


class Change(_Record):
    """One file's uncommitted change: its staged and unstaged hunks, merged."""

    FIELDS = (
        "id",
        "file_path",
        "old_path",
        "status",
        "binary",
        "hunks",
        "old_mode",
        "new_mode",
        "staged_patch",
        "unstaged_patch",
        "untracked",
    )
    # ``kept_whole``: the lines a file kept whole (a generated one, listed without its hunks) adds and removes.
    __slots__ = (*FIELDS, "kept_whole")

    def __init__(
        self,
        id: str,
        file_path: str,
        old_path: str | None,
        status: str,
        binary: bool,
        hunks: list[Hunk],
        old_mode: str | None = None,
        new_mode: str | None = None,
        staged_patch: FilePatch | None = None,
        unstaged_patch: FilePatch | None = None,
        untracked: bool = False,
    ) -> None:
        self.id = id
        self.file_path = file_path
        self.old_path = old_path
        self.status = status
        self.binary = binary
        self.hunks = hunks
        self.old_mode = old_mode
        self.new_mode = new_mode
        self.staged_patch = staged_patch
        self.unstaged_patch = unstaged_patch
        self.untracked = untracked
        self.kept_whole: tuple[int, int] | None = None

    @property
    def added(self) -> int:
        return self.counts(self.hunks)[0]

    @property
    def removed(self) -> int:
        return self.counts(self.hunks)[1]

    def counts(self, hunks: list[Hunk]) -> tuple[int, int]:
        """Lines ``hunks`` (some of this change's) add and remove; for a file kept whole, shown
        without hunks, the lines the whole file adds and removes."""
        if not hunks and self.kept_whole is not None:
            return self.kept_whole
        return sum(h.added for h in hunks), sum(h.removed for h in hunks)

    def with_hunks(self, hunks: list[Hunk]) -> "Change":
        """This change holding ``hunks`` instead (split sub-hunks, say); itself if they are its own."""
        if len(hunks) == len(self.hunks) and all(a is b for a, b in zip(hunks, self.hunks)):
            return self
        return Change(
            self.id,
            self.file_path,
            self.old_path,
            self.status,
            self.binary,
            hunks,
            self.old_mode,
            self.new_mode,
            self.staged_patch,
            self.unstaged_patch,
            self.untracked,
        )

    def to_dict(self) -> dict:
        data = self.summary_dict()
        data["hunks"] = [h.to_dict() for h in self.hunks]
        return {key: data[key] for key in WIRE_ORDER}

    def summary_dict(self) -> dict:
        """The wire shape without ``hunks``."""
        return {
            "id": self.id,
            "file_path": wire_text(self.file_path),
            "old_path": wire_text(self.old_path) if self.old_path is not None else None,
            "status": self.status,
            "binary": self.binary,
            "old_mode": self.old_mode,
            "new_mode": self.new_mode,
            "untracked": self.untracked,
        }


WIRE_ORDER = ("id", "file_path", "old_path", "status", "binary", "hunks", "old_mode", "new_mode", "untracked")
