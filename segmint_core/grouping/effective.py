"""Effective changes: the captured changes with stored hunk splits applied."""

from __future__ import annotations

from segmint_core.changes import ChangeSet
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.split import split_hunk
from segmint_core.errors import UnknownIdError


def apply_splits(changes: ChangeSet, splits: dict[str, list[int]]) -> list[Change]:
    """Every change of ``changes``, each split hunk replaced by its sub-hunks in place.

    ``splits`` maps a parent hunk id to the cuts for ``split_hunk``. The
    ChangeSet's own objects are left untouched; changes without a split are
    returned as they are.
    """
    unknown = sorted(h for h in splits if not changes.has_hunk(h))
    if unknown:
        raise UnknownIdError("hunk", unknown)
    return [split_change(c, splits) for c in changes.changes]


def split_change(change: Change, splits: dict[str, list[int]]) -> Change:
    if not any(h.id in splits for h in change.hunks):
        return change
    hunks: list[Hunk] = []
    for h in change.hunks:
        hunks.extend(split_hunk(h, splits[h.id]) if h.id in splits else [h])
    return change.with_hunks(hunks)
