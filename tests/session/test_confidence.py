"""The session's confidence: per hunk and group, the uncertain list, and how it follows edits."""

from __future__ import annotations

import pytest

from segmint_core.grouping.confidence import LISTED
from segmint_core.session.session import Session
from tests.grouping.scenarios import two_intents
from tests.session.test_generated import regenerated
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
    repo.write("README.md", "# Readme\n")  # a new file renumbers the changes
    session.refresh()
    assert len(session.state.settled) == len(doubt.hunk_ids)
    assert all(h in session.units.by_id for h in session.state.settled)


def test_a_refinement_is_told_the_uncertain_decisions(repo: Repo) -> None:
    session = mixed(repo)
    (doubt,) = session.confidence().uncertain
    (request,) = session.refine_requests().requests
    assert doubt.text in request.text


def two_edits_in_one_file(repo: Repo) -> Repo:
    """Two unrelated edits to one file: two groups, no hunk cut."""
    body = [f"def helper_{n}(value):\n    return value + {n}\n\n" for n in range(12)]
    repo.write("src/tools.py", "".join(body))
    repo.commit("init")
    body[0] = "def helper_0(value, scale=1):\n    return (value + 0) * scale\n\n"
    body[11] = "def helper_11(text):\n    return text.strip() + '11'\n\n"
    repo.write("src/tools.py", "".join(body))
    return repo


@pytest.mark.parametrize("scenario", [two_intents, regenerated, two_edits_in_one_file])
def test_confidence_from_the_evidence_grouping_hands_over_is_that_of_evidence_made_anew(repo: Repo, scenario) -> None:
    session = Session.open(str(scenario(repo).path))
    session.regroup()
    handed = session.confidence().to_dict()
    session.evidence_cache = session.confidence_cache = None
    assert session.confidence().to_dict() == handed


def test_a_regroup_hands_its_evidence_to_the_confidence(repo: Repo) -> None:
    """So the TUI's ? marks, worked out right after grouping, do not read and link every hunk
    again (the evidence made anew is the same: the test above)."""
    session = Session.open(str(two_edits_in_one_file(repo).path))
    session.regroup()
    assert not session.units.splits and session.evidence_cache is not None
    key, units, links = session.evidence_cache
    assert [u.hunk.id for u in units if u.hunk] and links


def test_a_rename_keeps_the_confidence_without_working_it_out_again(repo: Repo, monkeypatch) -> None:
    """A rename reads nothing the confidence depends on; working it out again held the session's
    lock long enough to keep an agent's next call waiting (``segmint bench tui``)."""
    from segmint_core.session import confidence as module

    session = mixed(repo)
    before = session.confidence()
    (only,) = session.groups
    session.update_group(only.id, "one intent after all")
    monkeypatch.setattr(module, "_work_out", lambda _session: pytest.fail("worked out again after a rename"))
    after = session.confidence()
    assert after.revision == session.revision > before.revision
    assert after.to_dict() == before.to_dict()
    monkeypatch.undo()
    session.evidence_cache = session.confidence_cache = None
    assert session.confidence().to_dict() == before.to_dict()


def test_moving_a_hunk_works_the_confidence_out_again(repo: Repo) -> None:
    session = Session.open(str(two_intents(repo).path))
    session.regroup()
    before = session.confidence()
    first, second = session.groups[:2]
    session.move_hunks(first.hunk_ids[:1], to_group_id=second.id)
    after = session.confidence()
    assert after.revision == session.revision and after is not before
    session.evidence_cache = session.confidence_cache = None
    assert session.confidence().to_dict() == after.to_dict()
