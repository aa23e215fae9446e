"""Two proposed commits never carry one title: groups Segmint made that are titled alike are one
intent, and are merged before commits are proposed. Groups a person or agent shaped are theirs."""

from __future__ import annotations

from tests.support.readme_captions import AFTER, readme_edited
from tests.support.repo import Repo


def test_groups_titled_alike_are_proposed_as_one_commit(repo: Repo) -> None:
    session = readme_edited(repo)
    assert len(session.regroup()) == 2, "grouping alone cuts the README in two"

    (plan,) = session.propose_commits()

    (group,) = session.groups
    assert plan.change_group_ids == [group.id] and set(plan.hunk_ids) == set(group.hunk_ids)
    assert len(plan.hunk_ids) == 2
    said = [a.text for a in session.state.activity if a.action == "merged"]
    assert len(said) == 1 and f"into {group.id}: their commits said “" in said[0], said
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert repo.git("show", "HEAD:README.md") == AFTER


def test_groups_a_person_cut_keep_their_titles_apart(repo: Repo) -> None:
    session = readme_edited(repo)
    first, second = session.regroup()
    session.move_hunks(second.hunk_ids, to_group_id=second.id)  # settled where they are

    plans = session.propose_commits()

    assert len(plans) == 2 and plans[0].title == plans[1].title
    assert [g.id for g in session.groups] == [first.id, second.id]


def test_a_group_someone_named_is_not_merged(repo: Repo) -> None:
    session = readme_edited(repo)
    first, _ = session.regroup()
    session.update_group(first.id, "Say what the first example does")

    plans = session.propose_commits()

    assert len(plans) == 2 and plans[0].title == plans[1].title


def test_a_group_someone_moved_lines_into_is_not_merged(repo: Repo) -> None:
    session = readme_edited(repo)
    first, second = session.regroup()
    (hunk,) = second.hunk_ids
    session.move_lines(hunk, [1, 2], to_group_id=first.id)  # the first caption, beside the new line

    plans = session.propose_commits()

    assert len(plans) == 2 and plans[0].title == plans[1].title
