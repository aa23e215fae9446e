"""The session's confidence: per hunk and group, the uncertain list, and how it follows edits."""

from __future__ import annotations

from segmint_core.grouping.confidence import LISTED
from segmint_core.session.session import Session
from tests.grouping.scenarios import two_intents
from tests.support.repo import Repo


def mixed(repo: Repo) -> Session:
    """Two intents grouped right, then merged by hand into one group: a split is in doubt."""
    session = Session.open(str(two_intents(repo).path))
    session.regroup()
    session.merge_groups([g.id for g in session.groups])
    return session


def test_every_hunk_and_group_has_a_probability_and_only_likely_enough_doubts_are_listed(repo: Repo) -> None:
    session = Session.open(str(two_intents(repo).path))
    session.regroup()
    sure = session.confidence()
    assert set(sure.hunks) == {h.id for c in session.changes for h in c.hunks}
    assert set(sure.groups) == {g.id for g in session.groups}
    assert all(0.0 <= p <= 1.0 for p in [*sure.hunks.values(), *sure.groups.values()])
    assert all(u.probability >= LISTED and u.text for u in sure.uncertain)
    assert session.snapshot()["confidence"] == sure.to_dict()


def test_two_intents_merged_into_one_group_are_offered_apart_with_a_reason(repo: Repo) -> None:
    session = mixed(repo)
    (only,) = session.groups
    (doubt,) = session.confidence().uncertain
    assert doubt.kind == "split" and doubt.group_id == only.id and doubt.to_group_id is None
    config = {h.id for c in session.changes if c.file_path == "src/config.py" for h in c.hunks}
    assert config <= set(doubt.hunk_ids) and len(doubt.hunk_ids) < len(only.hunk_ids)
    assert doubt.text.startswith(", ".join(doubt.hunk_ids)) and "apart from group-1" in doubt.text
    assert 0.25 <= doubt.probability <= 1.0
    assert session.confidence().groups[only.id] < 0.8


def test_settling_a_doubt_follows_the_move_and_the_moved_hunks_are_not_offered_again(repo: Repo) -> None:
    session = mixed(repo)
    (doubt,) = session.confidence().uncertain
    group = session.move_hunks(doubt.hunk_ids, new_group=True)
    sure = session.confidence()
    assert sure.revision == session.revision and set(group.hunk_ids) == set(doubt.hunk_ids)
    assert sure.uncertain == [] and min(sure.groups.values()) > 0.8
    assert set(session.state.settled) == set(doubt.hunk_ids)
    # another process reading the saved session sees the same
    assert Session.open(str(repo.path)).confidence().to_dict() == sure.to_dict()
    session.regroup()
    assert session.state.settled == []


def test_settled_hunks_are_carried_across_a_refresh_with_their_new_ids(repo: Repo) -> None:
    session = mixed(repo)
    (doubt,) = session.confidence().uncertain
    session.move_hunks(doubt.hunk_ids, new_group=True)
    repo.write("README.md", "# Readme\n")    # a new file renumbers the changes
    session.refresh()
    assert len(session.state.settled) == len(doubt.hunk_ids)
    assert all(h in session.units.by_id for h in session.state.settled)


def test_a_refinement_is_told_the_uncertain_decisions(repo: Repo) -> None:
    session = mixed(repo)
    (doubt,) = session.confidence().uncertain
    (request,) = session.refine_requests().requests
    assert doubt.text in request.text
