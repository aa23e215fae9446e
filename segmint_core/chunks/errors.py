"""The errors the chunk tools raise: one deterministic sentence each."""

from __future__ import annotations

from segmint_core.errors import SegmintError


class DiffFileError(SegmintError):
    """The diff file cannot be used: a relative, missing or unreadable path,
    a directory, or bytes that are not text in any encoding."""


class ChunkArgumentError(SegmintError):
    """A tool argument out of range: a chunk number, a format, a pattern, a limit."""


class FileNotInDiffError(SegmintError):
    """``get_file_diff`` found no file, or several, for the path it was given."""
