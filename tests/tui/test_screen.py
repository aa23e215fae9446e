"""What the main screen shows: groups with counts and reasons, files and hunks, the diff, commits, activity."""

from __future__ import annotations

from rich.style import Style

from segmint_tui.diff_render import ADDED, REMOVED, HunkBlock
from segmint_tui.widgets.diff_view import DiffView
from tests.support.repo import Repo
from tests.tui.support import running, screen_text, settle


async def test_groups_with_counts_reasons_diff_commits_and_activity(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        groups = app.session.groups
        assert len(groups) == 3
        text = screen_text(app)
        for group in groups:
            row = app.main.tree.row(group.id)
            label = f"{group.id.replace('group-', '#')} +{row.added} −{row.removed}  {group.summary}"
            assert label[:40] in text
        first = groups[0]
        assert f"{first.id}  {first.summary}" in text, "the diff pane titles the highlighted group"
        assert f"why: {first.reasons[0]}" in text
        assert "person grouped the changes into 3 groups" in text
        assert "pairing off (--no-mcp)" in text
        assert "space Mark" in text and "m Move" in text and "? Help" in text, "the groups pane's keys"


async def test_a_group_expands_to_files_and_hunks_and_the_diff_follows(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        cli = next(g for g in app.session.groups if "change-2" in g.change_ids)
        while app.main.tree.cursor_ref.group_id != cli.id:
            await pilot.press("down")
        await pilot.press("right")
        await settle(pilot)
        text = screen_text(app)
        added = sum(h.added for h in app.session.changes[1].hunks)
        assert f"M +{added} −0  inventory/cli.py" in text
        await pilot.press("down", *["down"] * len(cli.reasons))  # past the reasons, onto the file
        assert app.main.tree.cursor_ref.kind == "file"
        await pilot.press("right", "down")  # into its first hunk
        ref = app.main.tree.cursor_ref
        assert (ref.kind, ref.hunk_id) == ("hunk", "change-2:1")
        shown = "\n".join(app.main.diff.visible_text())
        assert "@@ -1,6 +1,7 @@" in shown and "change-2:1" in shown
        assert "change-2:2" not in shown, "a hunk's diff shows that hunk only"
        assert "+import logging" in shown


async def test_the_diff_has_line_numbers_colours_and_pygments_highlighting(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        view: DiffView = app.main.diff
        document = view.document
        rows = [document.plain(y) for y in range(document.line_count)]
        added = next(y for y, row in enumerate(rows) if "+    inventory settings.json" in row)
        removed = next(y for y, row in enumerate(rows) if "-    inventory settings.ini" in row)
        assert rows[added].split()[:1] == ["5"], "the new line's number"
        assert rows[removed].split()[:1] == ["5"], "the old line's number"
        assert document.render(added)[1] == ADDED and document.render(removed)[1] == REMOVED
        while app.main.tree.cursor_ref.group_id != "group-1" or "config.py" not in screen_text(app):
            await pilot.press("down")
        config = next(y for y in range(view.document.line_count) if "def load_config" in view.document.plain(y))
        text = view.document.render(config)[0]
        keyword = next(span for span in text.spans if text.plain[span.start : span.end] == "def")
        assert isinstance(keyword.style, Style) and keyword.style.color is not None, "pygments coloured `def`"


async def test_staged_hunks_are_marked(demo: Repo) -> None:
    demo.add("inventory/stock.py")
    async with running(demo.path) as pilot:
        app = pilot.app
        stock = next(g for g in app.session.groups if "change-4" in g.change_ids)
        while app.main.tree.cursor_ref.group_id != stock.id:
            await pilot.press("down")
        rows = app.main.diff.visible_text()
        header = next(row for row in rows if "change-4:1" in row)
        assert header.startswith("●") and header.rstrip().endswith("staged")
        assert all(row.startswith("●") for row in rows if "raise ValueError" in row)
        await pilot.press("right", *["down"] * (len(stock.reasons) + 1), "right")
        await settle(pilot)
        groups_pane = [line[:50] for line in screen_text(app).splitlines()]
        assert any("1 +2 −0 staged" in line for line in groups_pane), "the hunk's row in the groups pane"


async def test_a_huge_diff_is_highlighted_only_where_it_is_seen(repo: Repo) -> None:
    repo.write("big.py", "")
    repo.commit("empty")
    repo.write("big.py", "".join(f"def function_{n}(value):\n    return value + {n}\n" for n in range(50_000)))
    async with running(repo.path, auto_group=False) as pilot:  # the diff, not the grouping, is tested
        view = pilot.app.main.diff
        assert view.document.line_count > 100_000
        await pilot.press("3", "end")
        await settle(pilot)
        assert "return value + 49999" in "\n".join(view.visible_text())
        hunk = next(block for block in view.document.blocks if isinstance(block, HunkBlock))
        assert 0 < len(hunk._chunks) <= 3, "only the chunks on screen were highlighted"


async def test_a_short_terminal_gives_the_activity_panel_s_rows_to_the_panes(demo: Repo) -> None:
    async with running(demo.path, size=(30, 8)) as pilot:
        app = pilot.app
        activity = app.main.query_one("#activity")
        assert not activity.display and not app.main.query_one("Header").display
        assert app.main.query_one("#groups").size.height >= 2, "the groups pane shows rows, not just its border"
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert activity.display and "pairing off (--no-mcp)" in screen_text(app)
        await pilot.resize_terminal(120, 16)  # short: the header stays
        await settle(pilot)
        assert not activity.display and app.main.query_one("Header").display


async def test_control_characters_in_names_and_lines_are_shown_escaped(repo: Repo) -> None:
    """A newline in a file name, a carriage return or an escape sequence in a line: shown as
    ``\\n``, ``\\r``, ``\\x1b``, never written raw (which broke rows and reached the terminal)."""
    repo.write("ctl.py", "x = 1\n")
    repo.commit("init")
    repo.write("ctl.py", 'x = 1\ny = "\x1b[31mred\rcr"\n\tz = 2\n')
    repo.write("new\nline.txt", "hi\n")
    async with running(repo.path, auto_group=False) as pilot:
        app = pilot.app
        await pilot.press("right")
        await settle(pilot)
        text = screen_text(app)
        assert "\x1b" not in text and "\r" not in text
        assert "A +1 −0  new\\nline.txt" in text, "the file's row in the groups pane"
        rows = [row.rstrip() for row in app.main.diff.visible_text()]
        assert any(row.startswith(" new\\nline.txt added") for row in rows), rows
        assert '2 +y = "\\x1b[31mred\\rcr"' in "\n".join(rows), "one row, the same line number"
        assert any(row.endswith("3 +    z = 2") for row in rows), "the next line keeps its number"


async def test_the_end_of_a_line_of_wide_characters_or_tabs_can_be_scrolled_to(repo: Repo) -> None:
    """A CJK character takes two columns and a tab four: the diff is as wide as its rows are drawn,
    so scrolling right reaches the end of every line (it stopped at half a line of CJK)."""
    repo.write("wide.txt", "x\n")
    repo.commit("init")
    repo.write("wide.txt", "x\n" + "漢" * 99 + "END\n" + "\t" * 40 + "TABEND\n")
    async with running(repo.path, auto_group=False) as pilot:
        view = pilot.app.main.diff
        await pilot.press("3")
        document = view.document
        drawn = [document.render(row)[0].cell_len for row in range(document.line_count)]
        assert max(drawn) <= view.virtual_size.width, "every row fits in the width the diff scrolls over"
        view.scroll_to(x=view.max_scroll_x, animate=False, immediate=True)  # as far right as it goes
        await settle(pilot)
        assert "漢END" in screen_text(pilot.app)
