"""A plan never commits what its group no longer holds."""

from __future__ import annotations

import pytest

from segmint_core.errors import RefusedError
from segmint_core.session.session import Session
from tests.session.conftest import one_group_per_hunk, open_session
from tests.support.repo import Repo


def plan_of(session: Session, group_id: str):
    return next(p for p in session.plans if p.change_group_ids == [group_id])


def test_moving_a_hunk_after_proposing_puts_both_plans_out_of_date(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.propose_commits()
    source, target, untouched = session.groups
    moved = source.hunk_ids[0]
    moved_line = session.units.by_id[moved].changed_lines[-1][1:]
    target_line = session.units.by_id[target.hunk_ids[0]].changed_lines[-1][1:]
    session.move_hunks([moved], to_group_id=target.id)  # as the TUI's m and the agent's move_hunks do

    target_plan = plan_of(session, target.id)
    assert target_plan.out_of_date == (
        f"{target_plan.id} is out of date: {target.id} changed since it was proposed; propose commits again"
    )
    assert not plan_of(session, untouched.id).out_of_date
    before = two_intents.snapshot()
    with pytest.raises(RefusedError, match="out of date"):
        session.apply_commit(target_plan.id)
    with pytest.raises(RefusedError, match="out of date"):
        session.apply_all()
    assert two_intents.snapshot() == before, "nothing committed"

    session.propose_commits()
    session.apply_all()
    commits = two_intents.git("log", "--format=%H", "-n", "2").split()
    diffs = [two_intents.git("show", "--format=", sha) for sha in commits]
    assert [moved_line in d for d in diffs].count(True) == 1
    assert all((moved_line in d) == (target_line in d) for d in diffs), "the moved hunk went with its new group"
    assert two_intents.git("status", "--porcelain") == ""


def test_merging_groups_after_proposing_puts_their_plans_out_of_date(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.propose_commits()
    keep, gone, _ = session.groups
    gone_plan = plan_of(session, gone.id)
    session.merge_groups([keep.id, gone.id])
    assert "changed since it was proposed" in plan_of(session, keep.id).out_of_date
    assert f"{gone.id} was merged into another group or emptied" in session.plan(gone_plan.id).out_of_date
    with pytest.raises(RefusedError):
        session.apply_commit(gone_plan.id)


def test_a_plan_that_disagrees_with_its_group_is_refused_even_unmarked(two_intents: Repo) -> None:
    # A session saved before plans followed their groups: the apply itself compares them.
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.propose_commits()
    source, target, _ = session.groups
    session.move_hunks([source.hunk_ids[0]], to_group_id=target.id)
    for plan in session.plans:
        plan.stale = None
    with pytest.raises(RefusedError, match=f"{target.id} changed since it was proposed"):
        session.apply_commit(plan_of(session, target.id).id)
