"""Confidence in the TUI: a ? on uncertain hunks, d jumps to the next one, o accepts its alternative."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.grouping.scenarios import two_intents
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle


def mixed(repo: Repo) -> Session:
    """Two intents merged into one group by hand: the engine doubts it and offers the split."""
    session = Session.open(str(two_intents(repo).path))
    session.regroup()
    session.merge_groups([g.id for g in session.groups])
    return session


async def test_d_goes_to_the_uncertain_hunk_and_o_accepts_its_alternative(repo: Repo) -> None:
    doubt = mixed(repo).confidence().uncertain[0]
    async with running(repo.path) as pilot:
        app = pilot.app
        tree = app.main.tree
        assert "? #1" in screen_text(app)  # the group the doubt is about is marked
        await pilot.press("d")
        await settle(pilot)
        assert tree.cursor_ref.hunk_id == doubt.hunk_ids[0]
        assert f"? {doubt.hunk_ids[0].split('-', 1)[1]} " in screen_text(app)
        assert any(doubt.text in n for n in notifications(app))
        await pilot.press("o")
        await settle(pilot)
        groups = Session.open(str(repo.path)).groups
        assert len(groups) == 2 and sorted(groups[1].hunk_ids) == sorted(doubt.hunk_ids)
        assert app.session.confidence().uncertain == []
        assert not any(str(node.label).startswith("? ") for node in tree._all_nodes())
        await pilot.press("o")
        await settle(pilot)
        assert any("No uncertain decision here" in n for n in notifications(app))
        await pilot.press("d")
        assert any("Nothing uncertain" in n for n in notifications(app))


async def test_a_merge_the_engine_doubts_is_accepted_on_its_group(repo: Repo) -> None:
    session = Session.open(str(two_intents(repo).path))
    session.regroup()
    (merge,) = [u for u in session.confidence().uncertain if u.kind == "merge"]
    assert "might be one intent" in merge.text
    async with running(repo.path) as pilot:
        await pilot.press("d")
        await settle(pilot)
        assert pilot.app.main.tree.cursor_ref.group_id == merge.group_id
        await pilot.press("o")
        await settle(pilot)
        assert len(Session.open(str(repo.path)).groups) == len(session.groups) - 1
