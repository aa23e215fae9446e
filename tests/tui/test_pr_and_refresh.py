"""The pull-request pane, and refreshing when the files change on disk (by key and on its own)."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.support.repo import Repo
from tests.tui.support import running, screen_text, settle, type_text, until


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
        assert "#4 +1 −0  New changes since the last grouping" in screen_text(app)


async def test_edits_on_disk_are_noticed_without_a_key(demo: Repo) -> None:
    async with running(demo.path, watch=True) as pilot:
        app = pilot.app
        demo.write("inventory/stock.py", demo.read("inventory/stock.py").decode() + "\n\nLOW_STOCK = 3\n")
        await until(pilot, lambda: "LOW_STOCK" in str([h.lines for c in app.session.changes for h in c.hunks]),
                    what="the session to re-read the working tree")
        await until(pilot, lambda: "segmint refreshed" in screen_text(app), what="the activity line")
        demo.git("add", "-A")                               # git's index changing counts too
        await until(pilot, lambda: all(h.staged for c in app.session.changes for h in c.hunks),
                    what="the staged hunks")
