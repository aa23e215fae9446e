"""A person at an 80x24 terminal does the whole flow, and the screen never shows a stale or empty pane."""

from __future__ import annotations

from segmint_tui.app import SegmintApp
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text

SMALL = (80, 24)


def note(app: SegmintApp, pane: str) -> str:
    """What an empty pane says (\"\" when it is not empty)."""
    shown = app.main.query_one(f"#{pane}-empty")
    return str(shown.content) if shown.display else ""


def right_width(app: SegmintApp) -> int:
    return app.main.query_one("#right").size.width


async def test_the_whole_flow_at_80_by_24(demo: Repo) -> None:
    async with running(demo.path, size=SMALL) as pilot:
        app, main = pilot.app, pilot.app.main
        assert "#1 +15 −7" in screen_text(app) and "2 Commits" in screen_text(app)
        await pilot.press("3")  # read the diff: it takes the width
        await settle(pilot)
        assert app.focused is main.diff and right_width(app) == 80
        assert main.diff.document.width <= main.diff.scrollable_content_region.width, "no line is cut"
        assert "inventory/config.py modified +3 −6  change-3" in screen_text(app)
        await pilot.press("1")  # back to the groups, beside the diff
        await settle(pilot)
        assert main.tree.size.width >= 30 and "#3 +10 −0" in screen_text(app)

        await pilot.press("p")
        await settle(pilot)
        assert "1. fix(inventory): use json" in screen_text(app)
        await pilot.press("enter")  # the message editor takes the width too
        await settle(pilot)
        assert app.focused is main.editor.title_input and main.editor.title_input.size.width >= 70
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "feat(config): read the settings from a JSON file instead of INI")
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is main.commits and app.session.plans[0].title.endswith("instead of INI")

        await pilot.press("A")
        await settle(pilot)
        await pilot.press("X")
        await settle(pilot)
        assert [p.status for p in app.session.plans] == ["applied"] * 3 and demo.status() == ""
        assert note(app, "groups").startswith("Nothing to commit: the working tree is clean.")
        assert "Nothing to commit: the working tree" in screen_text(app)


async def test_a_wide_terminal_keeps_both_sides_whatever_has_the_focus(demo: Repo) -> None:
    async with running(demo.path, size=(160, 48)) as pilot:
        await pilot.press("3")
        await settle(pilot)
        assert pilot.app.main.tree.size.width > 40 and right_width(pilot.app) < 110


async def test_an_empty_list_says_why_and_what_to_press(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        assert note(app, "commits") == "No commits yet: p proposes one per group."
        assert note(app, "commits") in screen_text(app) and note(app, "groups") == ""
        await pilot.press("p")
        await settle(pilot)
        assert note(app, "commits") == "" and "No commits yet" not in screen_text(app)
        await pilot.press("A", "X")
        await settle(pilot)
        assert note(app, "groups") == "Nothing to commit: the working tree is clean. u undoes the last commit."
        assert "Nothing to commit: the working tree is clean." in screen_text(app)
        assert "3. fix(inventory)" in screen_text(app), "the applied commits stay listed"
        await pilot.press("1", "p")  # nothing left to propose: says so, stays
        await settle(pilot)
        assert notifications(app)[-1] == "Nothing to propose: the working tree is clean"
        assert app.focused is app.main.tree


async def test_at_40_by_10_the_message_field_in_use_is_on_screen(demo: Repo) -> None:
    """The editor scrolls to the field with the focus: typing never goes into a body out of sight."""
    async with running(demo.path, size=(40, 10)) as pilot:
        app = pilot.app
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("2", "enter", "enter")  # the message editor, then on to the body
        assert app.focused is app.main.editor.body
        await pilot.press("ctrl+home")
        await type_text(pilot, "BODYTEXT ")
        await settle(pilot)
        assert "BODYTEXT" in screen_text(app)
        await pilot.press("shift+tab")  # back to the title
        await settle(pilot)
        assert app.focused is app.main.editor.title_input
        assert app.main.editor.title_input.value[:12] in screen_text(app)
