"""Finding the edit timeline for a repository, when the trajectory recorder left one.

``segmint_core.trajectory.timeline.hunk_histories`` is imported lazily: the
trajectory package is optional for grouping, and absent in older trees.
"""

from __future__ import annotations

from typing import Any

from segmint_core.changes import ChangeSet


def lookup_timeline(root: str | None, changes: ChangeSet) -> dict[str, Any] | None:
    """``{hunk id: HunkHistory}`` for ``changes``, or None (no root, no recorder, no .trajectory)."""
    if root is None:
        return None
    try:
        from segmint_core.trajectory.timeline import hunk_histories
    except ImportError:
        return None
    return hunk_histories(root, changes)
