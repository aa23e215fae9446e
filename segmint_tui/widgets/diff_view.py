"""The diff pane: a line-API view over a DiffDocument with a line cursor.

Only the rows on screen are rendered (``render_line``), so a group of a
thousand files scrolls as smoothly as one hunk. The cursor row is what
"comment on this line" and "move this hunk" act on.
"""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from segmint_tui.diff_render import DiffDocument, Target, message_document


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
        Binding("c", "screen.comment", "Comment"),
        Binding("m", "screen.move_hunks", "Move hunk"),
        Binding("n", "screen.move_to_new_group", "New group"),
    ]
    COMPONENT_CLASSES = {"diff-view--cursor"}
    DEFAULT_CSS = """
    DiffView { background: $surface; }
    DiffView > .diff-view--cursor { background: $accent 35%; }
    """

    cursor = reactive(0, always_update=True, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.document: DiffDocument = message_document("Select a group, file or hunk.")
        self._pass_styles: tuple[Style, Style] | None = None     # (base, cursor) during render_lines

    # -- content ------------------------------------------------------------------

    def show(self, document: DiffDocument, *, keep_position: bool = False) -> None:
        """Display ``document``; ``keep_position`` keeps cursor and scroll (a live update)."""
        same = keep_position and document.key == self.document.key
        if document.live != self.document.live:
            self.refresh_bindings()     # the footer offers comments and moves on live rows only
        self.document = document
        self.virtual_size = Size(document.width, document.line_count)
        if same:
            self.cursor = min(self.cursor, max(0, document.line_count - 1))
        else:
            self.set_reactive(DiffView.cursor, 0)
            self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    @property
    def target(self) -> Target | None:
        return self.document.target(self.cursor)

    # -- rendering ----------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style walks every ancestor's styles: once per pass, not once per row.
        self._pass_styles = (self.rich_style, self.get_component_rich_style("diff-view--cursor"))
        try:
            return super().render_lines(crop)
        finally:
            self._pass_styles = None

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        base, cursor = self._pass_styles or (self.rich_style, self.get_component_rich_style("diff-view--cursor"))
        if row >= self.document.line_count:
            return Strip.blank(width, base)
        text, background = self.document.render(row)
        fill = base + background if background else base
        if row == self.cursor and self.has_focus:
            fill = fill + cursor
        segments = list(text.render(self.app.console))
        strip = Strip(segments, text.cell_len).apply_style(fill)
        return strip.crop_extend(scroll_x, scroll_x + width, fill).apply_offsets(scroll_x, row)

    def watch_cursor(self, old: int, new: int) -> None:
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

    def on_click(self, event: events.Click) -> None:
        row = self.scroll_offset.y + event.y
        if 0 <= row < self.document.line_count:
            self.cursor = row

    # -- actions ------------------------------------------------------------------

    def _move(self, delta: int) -> None:
        if self.document.line_count:
            self.cursor = max(0, min(self.document.line_count - 1, self.cursor + delta))

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

    def visible_text(self) -> list[str]:
        """The plain text of the rows on screen (tests and the tmux check read it)."""
        top = self.scroll_offset.y
        return [self.document.plain(y) for y in range(top, min(self.document.line_count, top + self.size.height))]

