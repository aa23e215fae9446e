"""Groups for tests, made by the session's own edit methods."""

from __future__ import annotations

from segmint_core.session.session import Session


def one_group_per_hunk(session: Session) -> None:
    """Every hunk in a group of its own."""
    session.regroup()
    ids = [h.id for c in session.changes for h in c.hunks]
    target = session.groups[0].id
    session.move_hunks(ids, to_group_id=target)
    for hunk_id in ids[1:]:
        session.move_hunks([hunk_id], new_group=True)
