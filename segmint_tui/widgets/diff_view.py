"""The diff pane: a line-API view over a DiffDocument with a line cursor.

Only the rows on screen are rendered (``render_line``), so a group of a
thousand files scrolls as smoothly as one hunk. The cursor row is what
"comment on this line" and "move this hunk" act on.

A line selection (``v``, then the cursor; or a drag with the mouse) picks
changed lines of one hunk: ``m`` and ``n`` then move those lines instead of
the hunk. The selection stays within the hunk it started in.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.reactive import reactive, var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from segmint_tui.diff_render import DiffDocument, HunkBlock, Target, message_document


@dataclass(frozen=True)
class LineSelection:
    """Changed lines picked in one hunk: ``positions`` are 1-based among its changed lines."""

    hunk_id: str
    positions: list[int]
    first: int  # rows of the diff, inclusive
    last: int


class DiffView(ScrollView, can_focus=True):
    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False),
        Binding("down,j", "cursor_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "top", "Top", show=False),
        Binding("end", "bottom", "Bottom", show=False),
        Binding("left_square_bracket", "previous_hunk", "Prev hunk"),
        Binding("right_square_bracket", "next_hunk", "Next hunk"),
        Binding("v", "toggle_selection", "Select lines"),
        Binding("escape", "clear_selection", "Clear selection"),  # in the footer while lines are selected
        Binding("c", "screen.comment", "Comment"),
        Binding("m", "screen.move_hunks", "Move"),
        Binding("n", "screen.move_to_new_group", "New group"),
        Binding("slash", "screen.search_diff", "Search"),
        Binding("e", "screen.open_editor", "Edit"),
    ]
    COMPONENT_CLASSES = {"diff-view--cursor", "diff-view--selection"}
    # A drag selects whole lines of a hunk (below), so Textual's own text selection is off, and
    # rows carry no offsets for it: adding them to every segment was a tenth of a key's CPU.
    ALLOW_SELECT = False
    DEFAULT_CSS = """
    DiffView { background: $surface; }
    DiffView > .diff-view--cursor { background: $accent 35%; }
    DiffView > .diff-view--selection { background: $accent 20%; text-style: bold; }
    """

    cursor = reactive(0, always_update=True, init=False)
    # where a line selection started (not ``anchor``: that is Widget.anchor, which keeps a scroll at the end)
    selection_start: var[int | None] = var(None, bindings=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.document: DiffDocument = message_document("Select a group, file or hunk.")
        self._dragging = False
        # (base, cursor, selection styles, selected rows) during render_lines
        self._pass_styles: tuple[Style, Style, Style, tuple[int, int] | None] | None = None

    # -- content ------------------------------------------------------------------

    def show(self, document: DiffDocument, *, keep_position: bool = False) -> None:
        """Display ``document``; ``keep_position`` keeps cursor and scroll (a live update)."""
        same = keep_position and document.key == self.document.key
        if document.live != self.document.live:
            self.refresh_bindings()  # the footer offers comments and moves on live rows only
        # Rows above the cursor may come or go (a file left the group): the cursor and the
        # selection follow their hunk's lines, not their row numbers.
        cursor = _hunk_place(self.document, self.cursor) if same else None
        anchor = _hunk_place(self.document, self.selection_start) if same and self.selection is not None else None
        self.document = document
        self.virtual_size = Size(document.width, document.line_count)
        self.selection_start = _row_in(document, anchor)
        if same:
            moved = _row_in(document, cursor)
            self.cursor = moved if moved is not None else min(self.cursor, max(0, document.line_count - 1))
        else:
            self.set_reactive(DiffView.cursor, 0)
            self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    @property
    def target(self) -> Target | None:
        return self.document.target(self.cursor)

    # -- line selection -------------------------------------------------------------

    @property
    def selection(self) -> LineSelection | None:
        """The selected rows (clamped to the anchor's hunk) and the changed lines among them."""
        if self.selection_start is None or not self.document.live:
            return None
        span = self.document.hunk_span(self.selection_start)
        if span is None:
            return None
        block, first_row, last_row = span
        first = max(first_row, min(self.selection_start, self.cursor))
        last = min(last_row, max(self.selection_start, self.cursor))
        header = first_row - 1  # the block's row 0
        return LineSelection(block.hunk.id, block.changed_positions(first - header, last - header), first, last)

    def action_toggle_selection(self) -> None:
        if self.selection_start is not None:
            self.action_clear_selection()
            return
        span = self.document.hunk_span(self.cursor) if self.document.live else None
        if span is None:
            self.notify("Put the cursor on a line of a hunk to select lines", severity="warning")
            return
        self.selection_start = max(span[1], self.cursor)
        self.cursor = self.selection_start
        self.refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_selection":  # esc is offered, and taken, only while there is a selection
            return self.selection is not None
        return True

    def action_clear_selection(self) -> None:
        if self.selection_start is not None:
            self.selection_start = None
            self.refresh()

    def _selected_rows(self) -> tuple[int, int] | None:
        found = self.selection
        return None if found is None else (found.first, found.last)

    # -- rendering ----------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style walks every ancestor's styles: once per pass, not once per row.
        self._pass_styles = self._styles_now()
        try:
            return super().render_lines(crop)
        finally:
            self._pass_styles = None

    def _styles_now(self) -> tuple[Style, Style, Style, tuple[int, int] | None]:
        return (
            self.rich_style,
            self.get_component_rich_style("diff-view--cursor"),
            self.get_component_rich_style("diff-view--selection"),
            self._selected_rows(),
        )

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        base, cursor, selected, chosen = self._pass_styles or self._styles_now()
        if row >= self.document.line_count:
            return Strip.blank(width, base)
        text, background = self.document.render(row)
        fill = base + background if background else base
        if chosen is not None and chosen[0] <= row <= chosen[1]:
            fill = fill + selected
            text = Text.assemble(("▌", selected), text[1:]) if text.cell_len else text
        if row == self.cursor and self.has_focus:
            fill = fill + cursor
        segments = list(text.render(self.app.console))
        strip = Strip(segments, text.cell_len).apply_style(fill)
        return strip.crop_extend(scroll_x, scroll_x + width, fill)

    def watch_cursor(self, old: int, new: int) -> None:
        if self.selection_start is not None:
            self.refresh()  # the selection grew or shrank
        else:
            self._refresh_row(old)
            self._refresh_row(new)
        self.scroll_to_row(new)

    def _refresh_row(self, row: int) -> None:
        y = row - self.scroll_offset.y
        if 0 <= y < self.size.height:
            self.refresh_line(y)

    def scroll_to_row(self, row: int) -> None:
        top = self.scroll_offset.y
        height = self.scrollable_content_region.height
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def on_focus(self) -> None:
        self._refresh_row(self.cursor)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor)

    # -- the mouse: a click moves the cursor, a drag selects lines, shift+click extends ----

    def _row_at(self, event: events.MouseEvent) -> int | None:
        row = self.scroll_offset.y + event.y
        return row if 0 <= row < self.document.line_count else None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        row = self._row_at(event)
        if row is None or event.button != 1:
            return
        if event.shift and self.document.live:
            if self.selection_start is None:
                self.selection_start = self.cursor
            self.cursor = row
            return
        self.selection_start = None
        self.cursor = row
        self._dragging = True
        self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if not self._dragging:
            return
        row = self._row_at(event)
        if row is None or row == self.cursor:
            return
        if self.selection_start is None and self.document.hunk_span(self.cursor) is not None and self.document.live:
            self.selection_start = self.cursor
        self.cursor = row

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._dragging:
            self._dragging = False
            self.capture_mouse(False)

    # -- actions ------------------------------------------------------------------

    def _move(self, delta: int) -> None:
        if not self.document.line_count:
            return
        low, high = 0, self.document.line_count - 1
        span = self.document.hunk_span(self.selection_start) if self.selection_start is not None else None
        if span is not None:  # a selection keeps the cursor in its hunk
            low, high = span[1], span[2]
        self.cursor = max(low, min(high, self.cursor + delta))

    def action_cursor_up(self) -> None:
        self._move(-1)

    def action_cursor_down(self) -> None:
        self._move(1)

    def action_page_up(self) -> None:
        self._move(-max(1, self.scrollable_content_region.height - 1))

    def action_page_down(self) -> None:
        self._move(max(1, self.scrollable_content_region.height - 1))

    def action_top(self) -> None:
        self._move(-self.cursor)

    def action_bottom(self) -> None:
        self._move(self.document.line_count)

    def action_next_hunk(self) -> None:
        later = [r for r in self.document.hunk_rows() if r > self.cursor]
        if later:
            self.cursor = later[0]
            self.scroll_to(y=later[0], animate=False, immediate=True)

    def action_previous_hunk(self) -> None:
        earlier = [r for r in self.document.hunk_rows() if r < self.cursor]
        if earlier:
            self.cursor = earlier[-1]
            self.scroll_to(y=earlier[-1], animate=False, immediate=True)

    # -- search ------------------------------------------------------------------------

    def find(self, term: str, step: int = 1, *, here: bool = False) -> bool:
        """Move the cursor to the next row holding ``term`` (``step`` -1: the previous one;
        ``here``: the cursor's own row counts). False when no row holds it."""
        start = self.cursor - step if here else self.cursor
        row = self.document.find(term, start, step)
        if row is None:
            return False
        self.cursor = row
        return True

    def visible_text(self) -> list[str]:
        """The plain text of the rows on screen (tests and the tmux check read it)."""
        top = self.scroll_offset.y
        return [self.document.plain(y) for y in range(top, min(self.document.line_count, top + self.size.height))]


def _hunk_place(document: DiffDocument, row: int | None) -> tuple[HunkBlock, int] | None:
    """Row ``row`` as its hunk and the row within it; None outside hunks."""
    found = document.locate(row) if row is not None else None
    if found is None:
        return None
    block, index = found
    return (block, index) if isinstance(block, HunkBlock) else None


def _row_in(document: DiffDocument, place: tuple[HunkBlock, int] | None) -> int | None:
    """The row of ``place`` in ``document``, its hunk found by file and lines (its id may have
    changed); None when the hunk is not there as it was."""
    if place is None:
        return None
    block, index = place
    start = document.same_hunk(block)
    return None if start is None else start + index
