"""Groups for tests, made by the session's own edit methods."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.support.repo import Repo


def one_group_per_hunk(session: Session) -> None:
    """Every hunk in a group of its own."""
    session.regroup()
    ids = [h.id for c in session.changes for h in c.hunks]
    target = session.groups[0].id
    session.move_hunks(ids, to_group_id=target)
    for hunk_id in ids[1:]:
        session.move_hunks([hunk_id], new_group=True)


def stuck_pair(repo: Repo) -> Session:
    """A file deleted in the index and made again in the work tree with a blank line before its
    old content; the old line made again moved beside the deletion: two groups, each of whose
    plans needs the other's lines."""
    repo.write("a.py", "\r\n")
    repo.commit()
    repo.git("rm", "-q", "--cached", "--", "a.py")
    repo.write("a.py", "\n\r\n")
    session = Session.open(str(repo.path))
    session.regroup()
    assert [g.hunk_ids for g in session.groups] == [["change-1:1"], ["change-1:2"]]
    session.move_lines("change-1:2", [2], to_group_id="group-1")  # "\r" made again, beside the deletion
    return session
