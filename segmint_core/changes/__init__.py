"""The change model: a repository's uncommitted edits as Change and Hunk objects."""

from segmint_core.changes.capture import ChangeSet, capture, merge_patches
from segmint_core.changes.models import Change, FilePatch, Hunk
from segmint_core.changes.parser import parse_diff
from segmint_core.changes.patch import build_patch

__all__ = [
    "Change", "ChangeSet", "FilePatch", "Hunk",
    "build_patch", "capture", "merge_patches", "parse_diff",
]
