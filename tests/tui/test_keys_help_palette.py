"""Every action has a key (shown in the footer and on the help screen) and a command in the palette;
every failure is a notification with its reason, never a crash."""

from __future__ import annotations

import re

from textual.binding import Binding
from textual.command import CommandPalette

from segmint_core.errors import SegmintError
from segmint_tui.catalog import COMMANDS, action_name
from segmint_tui.screens.help import HelpScreen, panes
from segmint_tui.screens.main import MainScreen
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text


def bound_actions() -> set[str]:
    """The main screen's actions bound to a key anywhere on it."""
    names = set()
    for _title, widget in panes(MainScreen):
        for binding in widget.BINDINGS:
            assert isinstance(binding, Binding)
            action = binding.action
            if widget is MainScreen or action.startswith("screen."):
                names.add(action_name(action.removeprefix("screen.")))
    return names - {"app.quit"}


def test_every_bound_action_is_in_the_palette_and_every_command_exists() -> None:
    commands = {action_name(c.action) for c in COMMANDS}
    assert bound_actions() <= commands, bound_actions() - commands
    for name in commands:
        assert callable(getattr(MainScreen, f"action_{name}", None)), name


async def test_the_palette_runs_any_action_by_name(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await type_text(pilot, "Propose commits")
        await pilot.pause(0.3)  # the palette searches in the background
        await pilot.press("enter")
        await settle(pilot)
        assert len(app.session.plans) == 3
        assert "Proposed 3 commits" in notifications(app)


async def test_help_lists_the_keys_of_every_pane(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for line in ("ctrl+p", "Command palette", "Everywhere", "Regroup", "Groups", "Mark", "Move"):
            assert line in text
        assert text.count("Regroup from scratch") == 1, "a key listed everywhere is not listed again per pane"
        await pilot.press("end")  # the help scrolls to its last rows
        # A pane's own key for an action bound everywhere too: P types a P in the PR pane, ^g redrafts.
        assert "^g              Generate pull request" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_the_footer_follows_the_focused_pane(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        footer = lambda: screen_text(pilot.app).splitlines()[-1]  # noqa: E731
        assert "space Mark" in footer() and "Approve" not in footer()
        await pilot.press("2")
        assert "a Approve" in footer() and "space Mark" not in footer()
        await pilot.press("3")
        assert "] Next hunk" in footer() and "c Comment" in footer()


async def test_the_diff_footer_offers_esc_while_lines_are_selected(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        footer = lambda: screen_text(pilot.app).splitlines()[-1]  # noqa: E731
        diff = pilot.app.screen.diff
        await pilot.press("3", "right_square_bracket", *("down",) * 6)
        assert "v Select lines" in footer() and "esc" not in footer()
        await pilot.press("v", "down")
        assert diff.selection is not None and "esc Clear selection" in footer()
        await pilot.press("escape")
        assert diff.selection is None and "esc" not in footer()
        await pilot.press("v", "v")  # v again clears it too
        assert diff.selection is None and "esc" not in footer()
        await pilot.press("question_mark", "end")
        assert re.search(r"│  v +Select lines .*\n.*│  esc +Clear selection ", screen_text(pilot.app))


async def test_errors_are_notifications_with_their_reason(demo: Repo) -> None:
    async with running(demo.path, toasts=True) as pilot:
        app = pilot.app
        await pilot.press("2", "u")  # nothing to undo yet
        await settle(pilot)
        assert "Could not undo: Nothing to undo: Segmint has made no commit in this session" in notifications(app)
        await pilot.press("a")  # no commits proposed yet
        assert "No commit highlighted: propose commits with p" in notifications(app)

        def broken(**_options):
            raise RuntimeError("the planner fell over")

        app.session.propose_commits = broken
        await pilot.press("p")
        await settle(pilot)
        assert "Could not propose commits: RuntimeError: the planner fell over" in notifications(app)
        assert app.is_running and "Could not propose commits" in screen_text(app)


async def test_brackets_in_titles_names_and_reasons_are_notified_as_they_are(repo: Repo) -> None:
    """A notification carries a commit title, a file name or an error as written: read as markup,
    a ``[/]`` in a title stopped the app (MarkupError) and ``[b]`` was eaten."""
    repo.write("a[/]b.txt", "a\n")
    repo.commit("init")
    repo.write("a[/]b.txt", "b\n")
    async with running(repo.path, toasts=True) as pilot:
        app = pilot.app
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("enter", "ctrl+u")
        await type_text(pilot, "fix[/]: a [b]bold[/b] claim")
        await pilot.press("escape", "P")  # the draft is named after the one commit
        await settle(pilot)
        assert app.is_running
        assert "Drafted “fix[/]: a [b]bold[/b] claim”" in screen_text(app)

        def broken(**_options):
            raise SegmintError("the plan for [red]a[/]b.txt[/] fell over")

        app.session.propose_commits = broken
        await pilot.press("escape", "p")
        await settle(pilot)
        assert app.is_running and "the plan for [red]a[/]b.txt[/] fell over" in screen_text(app)
