"""Lines in the diff pane: select them (keys or mouse), move them, undo the move; search; the editor."""

from __future__ import annotations

import sys
from pathlib import Path

from segmint_core.session.session import Session
from segmint_tui.dialogs.group_picker import GroupPicker
from segmint_tui.widgets.diff_search import DiffSearch
from segmint_tui.widgets.diff_view import DiffView
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text

BEFORE = "a = 1\nz = 9\n"
AFTER = "a = 1\nfirst = 1\nsecond = 2\nthird = 3\nz = 9\n"  # one hunk of three added lines


def three_lines(repo: Repo) -> Repo:
    repo.write("app.py", BEFORE)
    repo.commit()
    repo.write("app.py", AFTER)
    return repo


async def find(pilot, text: str) -> None:
    """Put the diff's cursor on the first row holding ``text``, through the search bar."""
    await pilot.press("3", "slash")
    await type_text(pilot, text)
    await pilot.press("escape")
    assert pilot.app.focused is pilot.app.main.diff


async def test_a_selected_line_moves_to_a_new_group_and_the_hunk_shows_where(repo: Repo) -> None:
    three_lines(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        await find(pilot, "+second")
        await pilot.press("v", "n")
        await settle(pilot)
        assert [(g.id, g.hunk_ids) for g in app.session.groups] == [
            ("group-1", ["change-1:1.1"]),
            ("group-2", ["change-1:1.2"]),
        ]
        assert app.session.units.by_id["change-1:1.2"].changed_lines == ["+second = 2"]
        assert (
            "Moved 1 line of change-1:1 to group-2 as change-1:1.2; change-1:1.1 holds the 2 lines left."
            in notifications(app)
        )
        assert app.main.diff.selection is None
        # group-1's diff shows the line that went to group-2, dimmed, where it sits.
        rows = [app.main.diff.document.plain(y) for y in range(app.main.diff.document.line_count)]
        assert any("+first = 1" in row for row in rows)
        ghost = next(row for row in rows if "second = 2" in row)
        assert ghost.strip() == "+second = 2   → group-2"
        assert any("part of change-1:1; its other lines: group-2" in row for row in rows)


async def test_a_selection_spans_lines_and_m_names_them(repo: Repo) -> None:
    three_lines(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        await find(pilot, "+first")
        await pilot.press("v", "down", "down", "down", "down")  # the cursor stays in the hunk
        selection = app.main.diff.selection
        assert (selection.hunk_id, selection.positions) == ("change-1:1", [1, 2, 3])
        assert app.main.diff.document.plain(app.main.diff.cursor).endswith("z = 9")  # the hunk's last row
        await pilot.press("up", "up")
        assert app.main.diff.selection.positions == [1, 2]
        await pilot.press("m")
        assert isinstance(app.screen, GroupPicker)
        assert "Move 2 lines of change-1:1 to" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("escape")
        assert app.main.diff.selection is None


async def test_the_mouse_drags_a_selection(repo: Repo) -> None:
    three_lines(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        await find(pilot, "+first")
        view = app.main.diff
        row = view.cursor - view.scroll_offset.y
        await pilot.mouse_down(DiffView, offset=(10, row))
        await pilot.hover(DiffView, offset=(10, row + 2))
        await pilot.mouse_up(DiffView, offset=(10, row + 2))
        assert view.selection.positions == [1, 2, 3]
        await pilot.click(DiffView, offset=(10, row))  # a plain click drops the selection
        assert view.selection is None and view.cursor == row + view.scroll_offset.y
        await pilot.click(DiffView, offset=(10, row + 1), shift=True)
        assert view.selection.positions == [1, 2]


async def test_undo_puts_the_last_move_back(repo: Repo) -> None:
    three_lines(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        await find(pilot, "+third")
        await pilot.press("v", "n")
        await settle(pilot)
        assert len(app.session.groups) == 2
        rows = [app.main.diff.document.plain(y) for y in range(app.main.diff.document.line_count)]
        assert any(row.strip() == "+third = 3   → group-2" for row in rows), "a moved last line shows after the rest"
        await pilot.press("z")
        await settle(pilot)
        assert [(g.id, g.hunk_ids) for g in app.session.groups] == [("group-1", ["change-1:1"])]
        assert any(
            n.startswith("person undid the move: person moved 1 line of change-1:1 to group-2")
            for n in notifications(app)
        )
        await pilot.press("z")
        await settle(pilot)
        assert "Could not undo the move: Nothing to undo: no hunks or lines were moved" in notifications(app)


async def test_search_goes_to_the_next_and_previous_match(repo: Repo) -> None:
    three_lines(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        view = app.main.diff
        await pilot.press("3", "slash")
        bar = app.main.query_one(DiffSearch)
        assert bar.display and app.focused is bar
        await type_text(pilot, " = ")
        first = view.cursor
        assert " = " in view.document.plain(first)
        await pilot.press("down")
        second = view.cursor
        assert second > first and " = " in view.document.plain(second)
        await pilot.press("up")
        assert view.cursor == first
        await pilot.press("enter")
        assert view.cursor == second
        bar.value = "no such text"
        await pilot.pause()
        assert bar.has_class("-missing") and view.cursor == second
        await pilot.press("escape")
        assert not bar.display and app.focused is view


EDITOR = """import os, sys
line, path = int(sys.argv[1][1:]), sys.argv[2]
with open(path) as fh:
    lines = fh.readlines()
lines.insert(line, "edited = 1\\n")
with open(path, "w") as fh:
    fh.writelines(lines)
with open(os.environ["EDITOR_ARGS"], "w") as fh:
    fh.write(" ".join(sys.argv[1:]))
"""


async def test_e_opens_the_editor_at_the_line_and_the_session_refreshes(
    repo: Repo, tmp_path: Path, monkeypatch
) -> None:
    three_lines(repo)
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    monkeypatch.setenv("VISUAL", f"{sys.executable} {script}")
    monkeypatch.setenv("EDITOR_ARGS", str(tmp_path / "args"))
    async with running(repo.path) as pilot:
        app = pilot.app
        await find(pilot, "+second")
        await pilot.press("e")
        await settle(pilot)
        assert (tmp_path / "args").read_text() == "+3 app.py"
        assert repo.read("app.py") == b"a = 1\nfirst = 1\nsecond = 2\nedited = 1\nthird = 3\nz = 9\n"
        changed = [line for c in app.session.changes for h in c.hunks for line in h.lines if line[:1] == "+"]
        assert "+edited = 1" in changed


async def test_e_without_an_editor_says_how_to_set_one(repo: Repo, monkeypatch) -> None:
    three_lines(repo)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    async with running(repo.path) as pilot:
        await find(pilot, "+second")
        await pilot.press("e")
        assert (
            "Could not open the editor: No editor set: set $EDITOR (or $VISUAL), for example export EDITOR=vim"
            in notifications(pilot.app)
        )


async def test_a_selection_follows_its_lines_when_a_refresh_takes_rows_above_it(repo: Repo) -> None:
    """A file above the selection leaves the group on disk: the selection stays on the lines the
    person chose (it stayed on the row numbers, and n moved other lines)."""
    repo.write("a.py", BEFORE)
    three_lines(repo)
    repo.write("a.py", AFTER)
    session = Session.open(str(repo.path))
    session.regroup()
    session.move_hunks(["change-1:1", "change-2:1"], new_group=True)  # a.py above app.py, one group
    async with running(repo.path, session=session) as pilot:
        app = pilot.app
        await pilot.press("3", "end", "up", "up", "v", "up")  # app.py's +second and +third
        selection = app.main.diff.selection
        assert (selection.hunk_id, selection.positions) == ("change-2:1", [2, 3])
        repo.git("checkout", "--", "a.py")
        await pilot.press("r")
        await settle(pilot)
        assert not any("a.py" in row for row in app.main.diff.visible_text())
        selection = app.main.diff.selection
        assert selection is not None and selection.positions == [2, 3]
        await pilot.press("n")
        await settle(pilot)
        moved = next(g for g in app.session.groups if len(g.hunk_ids) == 1 and g.hunk_ids[0].endswith(".2"))
        assert app.session.units.by_id[moved.hunk_ids[0]].changed_lines == ["+second = 2", "+third = 3"]


async def test_e_opens_a_file_named_like_an_option_or_a_command_as_a_file(
    repo: Repo, tmp_path: Path, monkeypatch
) -> None:
    """vim takes ``+!cmd`` as a shell command: a name like that reaches the editor as ``./+!cmd``."""
    repo.commit("empty")
    repo.write("+!touch PWNED", "first = 1\n")
    script = tmp_path / "editor.py"
    script.write_text("import os, sys\nopen(os.environ['EDITOR_ARGS'], 'w').write('\\n'.join(sys.argv[1:]))\n")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {script}")
    monkeypatch.setenv("EDITOR_ARGS", str(tmp_path / "args"))
    async with running(repo.path) as pilot:
        await find(pilot, "+first")
        await pilot.press("e")
        await settle(pilot)
        assert (tmp_path / "args").read_text().splitlines() == ["+1", "./+!touch PWNED"]
