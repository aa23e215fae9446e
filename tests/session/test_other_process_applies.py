"""Another process commits while a session opens, or while this one applies."""

from __future__ import annotations

import pytest

from segmint_core.changes import ChangeSet
from segmint_core.errors import RefusedError
from segmint_core.session.session import Session
from tests.session.conftest import one_group_per_hunk, open_session
from tests.support.repo import Repo


class CommittedMeanwhile(Session):
    """A session whose first read of the tree is overtaken: another process applies every plan
    between that read and this session taking its lock."""

    overtaken = False

    def capture_changes(self) -> ChangeSet:
        changes = super().capture_changes()
        if not CommittedMeanwhile.overtaken:
            CommittedMeanwhile.overtaken = True
            Session.open(str(self.git.root)).apply_all()
        return changes


def test_a_session_opened_as_another_process_commits_keeps_the_new_head(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.propose_commits()
    late = CommittedMeanwhile.open(str(two_intents.path))
    assert CommittedMeanwhile.overtaken and two_intents.status() == ""
    assert late.state.head == two_intents.head(), "the record of HEAD never goes back"
    assert {p.status for p in late.plans} == {"applied"} and not any(p.stale for p in late.plans)
    assert open_session(two_intents).state.head == two_intents.head()


def test_an_apply_is_refused_while_another_runs(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    first = session.propose_commits()[0].id
    other = open_session(two_intents)
    before = two_intents.head()
    with other.committing:  # another process's apply, under way
        with pytest.raises(RefusedError, match="Another apply is running"):
            session.apply_commit(first)
        with pytest.raises(RefusedError, match="Another apply is running"):
            session.apply_all()
    assert two_intents.head() == before
    assert session.apply_commit(first).status == "applied"
