"""The pull-request pane, and refreshing when the files change on disk (by key and on its own)."""

from __future__ import annotations

import shutil

from segmint_core.session.session import Session
from segmint_tui.dialogs.confirm import Confirm
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text, until

STALE = "stale: press ctrl+g to redraft"


async def test_draft_edit_save_and_copy_the_pull_request(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("P")
        await settle(pilot)
        draft = app.session.pr
        assert draft is not None and len(draft.commits) == 3
        assert app.focused is app.main.pr_editor.title_input
        text = screen_text(app)
        assert "Pull-request draft over 3 commits" in text and draft.title in text
        assert "## Summary" in text
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "Settings in JSON, a verbose flag, safer restock")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.session.pr.title == "Settings in JSON, a verbose flag, safer restock"
        assert Session.open(str(demo.path)).pr.title == app.session.pr.title
        await pilot.press("ctrl+y")
        assert app.clipboard.startswith("# Settings in JSON, a verbose flag, safer restock\n\n## Summary")
        assert "^s Save draft" in screen_text(app) and "^y Copy" in screen_text(app)


async def test_refresh_by_key_picks_up_new_edits(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        demo.write("CHANGELOG.md", "- settings are JSON now\n")
        await pilot.press("r")
        await settle(pilot)
        assert "CHANGELOG.md" in [c.file_path for c in app.session.changes]
        # (the end of the summary may be clipped: a ? marks the new group when the engine doubts it)
        assert "#4 +1 −0  New changes since the last" in screen_text(app)


async def test_edits_on_disk_are_noticed_without_a_key(demo: Repo) -> None:
    async with running(demo.path, watch=True) as pilot:
        app = pilot.app
        demo.write("inventory/stock.py", demo.read("inventory/stock.py").decode() + "\n\nLOW_STOCK = 3\n")
        await until(
            pilot,
            lambda: "LOW_STOCK" in str([h.lines for c in app.session.changes for h in c.hunks]),
            what="the session to re-read the working tree",
        )
        await until(pilot, lambda: "segmint refreshed" in screen_text(app), what="the activity line")
        demo.git("add", "-A")  # git's index changing counts too
        await until(pilot, lambda: all(h.staged for c in app.session.changes for h in c.hunks), what="the staged hunks")


async def test_the_pr_title_is_not_selected_and_escape_goes_back(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("P")
        await settle(pilot)
        await pilot.press("escape")  # back to the groups pane, where P was pressed
        assert app.focused is app.main.tree
        await pilot.press("2", "5")
        field = app.main.pr_editor.title_input
        title = app.session.pr.title
        assert app.focused is field and field.selected_text == ""
        await pilot.press("x")
        assert field.value == title + "x"
        await pilot.press("escape")  # saves, and back to the commits
        await settle(pilot)
        assert app.focused is app.main.commits
        assert app.session.pr.title == title + "x"
        await pilot.press("3", "5", "escape")
        assert app.focused is app.main.diff


async def test_redrafting_an_edited_pr_asks_first(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("P")
        await settle(pilot)
        drafted = app.session.pr.title
        await pilot.press("ctrl+u")
        await type_text(pilot, "My own title")
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("ctrl+g")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await settle(pilot)
        assert app.session.pr.title == "My own title" == app.main.pr_editor.title_input.value
        await pilot.press("ctrl+g", "y")
        await settle(pilot)
        assert app.session.pr.title == drafted == app.main.pr_editor.title_input.value
        await pilot.press("ctrl+g")  # not edited since: no question
        await settle(pilot)
        assert app.screen is app.main


async def test_a_draft_over_an_undone_commit_says_it_is_stale(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("p", "a", "x")
        await settle(pilot)
        await pilot.press("P")
        await settle(pilot)
        assert "Pull-request draft over 3 commits" in screen_text(app)
        assert STALE not in screen_text(app)
        await pilot.press("escape", "u")  # back to the commits, undo the commit
        await settle(pilot)
        await pilot.press("5")
        assert STALE in screen_text(app)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert STALE not in screen_text(app)


async def test_a_draft_whose_commit_message_changed_is_stale(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("p", "P")
        await settle(pilot)
        assert STALE not in screen_text(app)
        app.session.update_commit(app.session.plans[0].id, title="feat(config): read settings as JSON")
        await settle(pilot)
        assert STALE in screen_text(app)


async def test_an_empty_pr_title_is_refused_and_the_pane_stays(demo: Repo) -> None:
    async with running(demo.path, toasts=True) as pilot:
        app = pilot.app
        await pilot.press("P")
        await settle(pilot)
        before = app.session.pr.title
        await pilot.press("ctrl+u", "escape")
        await settle(pilot)
        assert app.session.pr.title == before and not app.session.pr.edited
        assert app.focused is app.main.pr_editor.title_input
        assert "A pull-request title must be one non-empty line" in screen_text(app)


async def test_the_app_keeps_running_and_quits_cleanly_when_its_session_folder_goes(demo: Repo) -> None:
    """``.git/segmint`` removed while the app is open: the next action makes it again and goes on,
    and quitting no longer ends in a traceback (recording that the person left raised FileNotFoundError)."""
    async with running(demo.path) as pilot:
        app = pilot.app
        shutil.rmtree(demo.path / ".git" / "segmint")
        await pilot.press("p")
        await settle(pilot)
        assert not any(n.startswith("Could not") for n in notifications(app))
        assert app.session.plans and (demo.path / ".git" / "segmint" / "session.json").exists()
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
