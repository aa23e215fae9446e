"""Finding the edit timeline for a repository, when the trajectory recorder left one.

``segmint_core.trajectory.timeline.hunk_histories`` is imported lazily: the
trajectory package is optional for grouping, and absent in older trees.
"""

from __future__ import annotations

import logging
from typing import Any

from segmint_core.changes import ChangeSet

log = logging.getLogger(__name__)


def lookup_timeline(root: str | None, changes: ChangeSet) -> dict[str, Any] | None:
    """``{hunk id: HunkHistory}`` for ``changes``, or None (no root, no recorder, no .trajectory)."""
    if root is None:
        return None
    try:
        from segmint_core.trajectory.timeline import hunk_histories
    except ImportError:
        return None
    return hunk_histories(root, changes)


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
