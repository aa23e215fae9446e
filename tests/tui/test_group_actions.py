"""Reshaping the groups from the keyboard: move, new group, marks, merge, rename, regroup, comment."""

from __future__ import annotations

import threading

from segmint_core.session.session import Session
from segmint_tui.dialogs.group_picker import GroupPicker
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text


def saved_groups(repo: Repo) -> dict[str, list[str]]:
    """The groups as persisted under .git/segmint/ (a fresh session reads them back)."""
    return {g.id: g.hunk_ids for g in Session.open(str(repo.path)).groups}


async def cursor_to(pilot, kind: str, hunk_or_group: str) -> None:
    tree = pilot.app.main.tree
    for _ in range(60):
        ref = tree.cursor_ref
        if ref.kind == kind and (ref.hunk_id == hunk_or_group or (kind == "group" and ref.group_id == hunk_or_group)):
            return
        if ref.kind in ("group", "file") and not tree.cursor_node.is_expanded and tree.cursor_node.allow_expand:
            await pilot.press("right")
        await pilot.press("down")
    raise AssertionError(f"no {kind} {hunk_or_group} in the tree")


async def test_move_a_hunk_to_another_group(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        target = next(g.id for g in app.session.groups if "change-4:1" in g.hunk_ids)
        await cursor_to(pilot, "hunk", "change-2:1")
        await pilot.press("m")
        assert isinstance(app.screen, GroupPicker)
        while app.screen.query_one("#picker").highlighted_option.id != target:
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        moved = app.session.group(target)
        assert "change-2:1" in moved.hunk_ids
        assert "change-2:1" in saved_groups(demo)[target]
        assert f"person moved change-2:1 to {target}" in screen_text(app)


async def test_a_hunk_moved_from_a_commit_s_diff_is_offered_every_group_but_its_own(demo: Repo) -> None:
    """The diff follows the commits pane: the picker leaves out the hunk's own group, not the group
    under the groups pane's cursor (which it hid, offering a move to where the hunk already is)."""
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("down", "3", "right_square_bracket")  # the second commit's first hunk
        hunk = app.main.diff.target.hunk.id
        own = next(g.id for g in app.session.groups if hunk in g.hunk_ids)
        assert app.main.tree.cursor_ref.group_id != own
        await pilot.press("m")
        assert isinstance(app.screen, GroupPicker)
        assert [row.id for row in app.screen.rows] == [g.id for g in app.session.groups if g.id != own]


async def test_move_a_hunk_to_a_new_group(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await cursor_to(pilot, "hunk", "change-2:2")
        await pilot.press("n")
        await settle(pilot)
        newest = app.session.groups[-1]
        assert (newest.id, newest.hunk_ids) == ("group-4", ["change-2:2"])
        assert saved_groups(demo)["group-4"] == ["change-2:2"]
        assert "#4 +" in screen_text(app)


async def test_marked_hunks_move_together(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await cursor_to(pilot, "hunk", "change-2:1")
        await pilot.press("space")  # marks it; the cursor stays on it
        tree = pilot.app.main.tree
        assert tree.cursor_ref.hunk_id == "change-2:1" and tree.marked == {tree.cursor_ref.key}
        marked = set(tree.marked)
        await pilot.press("down", "space", "space")  # the next row marked, then unmarked: no mark left there
        assert tree.marked == marked
        await cursor_to(pilot, "hunk", "change-4:1")
        await pilot.press("space")
        assert "● " in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert app.session.groups[-1].hunk_ids == ["change-2:1", "change-4:1"]
        assert app.main.tree.marked == set(), "the marks are used up"


async def test_merge_groups_by_picking_one_or_marking_several(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("M")  # the highlighted group-1 into ...
        assert isinstance(app.screen, GroupPicker)
        await pilot.press("enter")  # ... the first other group, group-2
        await settle(pilot)
        assert [g.id for g in app.session.groups] == ["group-2", "group-3"]
        assert "person merged group-2, group-1 into group-2" in screen_text(app)
        await pilot.press("space")  # mark both groups, merge them
        await cursor_to(pilot, "group", "group-3")
        await pilot.press("space", "M")
        await settle(pilot)
        assert [g.id for g in app.session.groups] == ["group-2"]
        assert len(saved_groups(demo)) == 1
        await pilot.press("M")  # the only group: nothing to pick from
        assert app.screen is app.main, "no picker with nothing in it"
        assert "Nothing to merge group-2 into: it is the only group" in notifications(app)


async def test_rename_a_group(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("R", "ctrl+a", "ctrl+k")
        await type_text(pilot, "Settings are JSON")
        await pilot.press("enter")
        await settle(pilot)
        group = app.session.group("group-1")
        assert (group.summary, group.edited) == ("Settings are JSON", True)
        assert "#1 +15 −7  Settings are JSON" in screen_text(app)
        assert saved_groups(demo) and Session.open(str(demo.path)).group("group-1").summary == "Settings are JSON"


async def test_regroup_from_scratch_shows_its_progress(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await cursor_to(pilot, "hunk", "change-2:2")
        await pilot.press("n")  # a manual move, which regrouping drops
        await settle(pilot)
        assert len(app.session.groups) == 4
        release = threading.Event()
        real = app.session.regroup

        def slow_regroup(**options):
            options["progress"](1, 4, "reading the hunks")
            assert release.wait(10)
            return real(**options)

        app.session.regroup = slow_regroup
        await pilot.press("g")
        await pilot.press("y")  # yes, drop the manual moves
        await pilot.pause(0.3)
        assert "Grouping: reading the hunks" in screen_text(app)
        release.set()
        await settle(pilot)
        assert "Grouping:" not in screen_text(app)
        assert len(app.session.groups) == 3
        assert "Grouped into 3 groups" in notifications(app)


async def test_one_group_is_counted_as_one(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("init")
    repo.write("a.txt", "b\n")
    async with running(repo.path, group_aside=False) as pilot:
        await pilot.press("g", "y")
        await settle(pilot)
        assert notifications(pilot.app) == ["Grouped into 1 group", "Grouped into 1 group"], "as it starts, then g"


async def test_comment_on_a_hunk_goes_to_the_agents_queue(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await cursor_to(pilot, "hunk", "change-3:1")
        await pilot.press("c")
        await type_text(pilot, "keep the old format readable")
        await pilot.press("enter")
        await settle(pilot)
        [message] = app.session.peek_review_messages()
        assert (message.file, message.hunk_id, message.comment) == (
            "inventory/config.py",
            "change-3:1",
            "keep the old format readable",
        )
        assert "1 comment queued for the agent" in screen_text(app)


async def test_comment_on_a_file_whose_name_holds_brackets(repo: Repo) -> None:
    """The prompt names the file as written: read as markup, ``[/]`` in a name stopped the app."""
    repo.write("a[/]b[i].txt", "a\n")
    repo.commit("init")
    repo.write("a[/]b[i].txt", "b\n")
    async with running(repo.path) as pilot:
        app = pilot.app
        await cursor_to(pilot, "hunk", "change-1:1")
        await pilot.press("c")
        assert app.is_running and "a[/]b[i].txt" in screen_text(app)
        await type_text(pilot, "why brackets?")
        await pilot.press("enter")
        await settle(pilot)
        [message] = app.session.peek_review_messages()
        assert (message.file, message.comment) == ("a[/]b[i].txt", "why brackets?")


async def test_comment_on_a_diff_line(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("3")  # the diff pane
        view = app.main.diff
        while "+    inventory settings.json" not in view.document.plain(view.cursor):
            await pilot.press("down")
        await pilot.press("c")
        await type_text(pilot, "say json here")
        await pilot.press("enter")
        await settle(pilot)
        [message] = app.session.peek_review_messages()
        assert (message.file, message.line, message.hunk_id) == ("README.md", 5, "change-1:1")
