"""Finding the edit timeline for a repository, when the trajectory recorder left one.

``segmint_core.trajectory.timeline.hunk_histories`` is imported lazily: the
trajectory package is optional for grouping, and absent in older trees.
"""

from __future__ import annotations

import logging
from typing import Any

from segmint_core.changes import ChangeSet
from segmint_core.errors import SegmintError

log = logging.getLogger(__name__)


def lookup_timeline(root: str | None, changes: ChangeSet) -> dict[str, Any] | None:
    """``{hunk id: HunkHistory}`` for ``changes``, or None (no root, no recorder, no .trajectory).

    A split's scratch tree has no recorder of its own: when it lays out a range of commits split with
    ``--follow-commits``, the commits are its timeline (each a burst), so a range of clean commits
    comes back as them unless the code's own evidence says otherwise. Without it, or for one commit,
    the change alone is grouped: work-in-progress commits would pull apart intents they mix."""
    if root is None:
        return None
    try:
        from segmint_core.trajectory.timeline import commit_histories, hunk_histories
    except ImportError:
        return None
    found = hunk_histories(root, changes)
    if found is None:
        from segmint_core.rewrite.split import range_laid_out_in

        laid_out = range_laid_out_in(root)
        if laid_out is not None and laid_out.follow_commits and len(laid_out.originals) > 1:
            try:
                return commit_histories(root, changes, laid_out.base, laid_out.tip)
            except (SegmintError, OSError) as exc:  # one signal among many: grouping goes on without it
                log.warning("grouping without the range's commits as a timeline: %s", exc)
    return found


def lookup_provenance(root: str | None, changes: ChangeSet) -> Any:
    """The intents recorded for each changed line (``trajectory.provenance.attribution.Provenance``),
    or None: no root, nothing recorded, or a record that cannot be read (grouping goes on without it)."""
    if root is None:
        return None
    from segmint_core.trajectory.errors import DamagedProvenanceError
    from segmint_core.trajectory.provenance.attribution import line_provenance

    try:
        return line_provenance(root, changes)
    except DamagedProvenanceError as exc:
        log.warning("grouping without recorded intents: %s", exc)
        return None
