"""What the commit editor and the PR pane share: a title (one line) and a body
(a TextArea), edited locally until saved. Text that comes from the session
while the person has unsaved edits does not overwrite them.

Escape saves the edits (if any) and goes back; a save the session refuses
keeps the editor open, so the person can fix what it names."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, TextArea

from segmint_tui.widgets.ordered_keys import OrderedInput, OrderedTextArea


class TitleInput(OrderedInput):
    """A title: a paste of several lines (a whole commit message) keeps its first line here, as
    Textual's ``Input`` does, and hands the rest to the body rather than dropping it."""

    class Rest(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def _on_paste(self, event: events.Paste) -> None:
        # Input's own handler runs next (Textual calls each class's): it inserts the first line.
        rest = "\n".join(event.text.splitlines()[1:]).lstrip("\n")  # past the blank line after a title
        if rest.strip():
            self.post_message(self.Rest(rest))


def title_input(placeholder: str, id: str) -> Input:
    # Selecting the title on focus would let the next key (a pane's key, out of
    # habit) replace the whole title.
    return TitleInput(placeholder=placeholder, id=id, select_on_focus=False)


def body_area(id: str) -> TextArea:
    return OrderedTextArea(id=id, soft_wrap=True, tab_behavior="focus")


class TitleBodyEditor(VerticalScroll):
    # Scrolls in a short terminal: the field with the focus is scrolled into view, never typed into unseen.
    ID_PREFIX = ""  # the inputs are #<prefix>-title and #<prefix>-body
    # ctrl+a is the line's start in both fields, as in a shell: these select or clear a whole field.
    BINDINGS = [
        Binding("f7", "select_field", "Select all", priority=True),
        Binding("f8", "clear_field", "Clear field", priority=True),
    ]

    class Leave(Message):
        """Go back to the pane the person came from (each subclass defines its own)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._loaded: tuple[str, str] = ("", "")
        self._editing = False  # something (a commit, a draft) is loaded

    @property
    def title_input(self) -> Input:
        return self.query_one(f"#{self.ID_PREFIX}-title", Input)

    @property
    def body(self) -> TextArea:
        return self.query_one(f"#{self.ID_PREFIX}-body", TextArea)

    @property
    def dirty(self) -> bool:
        return self._editing and (self.title_input.value, self.body.text) != self._loaded

    def focus_title(self) -> None:
        """Focus the title with the cursor after its text."""
        title = self.title_input
        title.focus()
        title.cursor_position = len(title.value)

    def show_text(self, title: str, body: str, *, editing: bool) -> None:
        """Load the saved text (what ``dirty`` compares against)."""
        self._editing = editing
        self._loaded = (title, body)
        if self.title_input.value != title:
            self.title_input.value = title
        if self.body.text != body:
            self.body.load_text(body)

    def on_title_input_rest(self, message: TitleInput.Rest) -> None:
        """The lines pasted into the title after its first: on into the body, as enter goes there."""
        message.stop()
        self.body.focus()
        self.body.replace(message.text, *self.body.selection)

    def mark_saved(self, title: str, description: str, *, sent: tuple[str, str]) -> None:
        """The session saved ``sent`` as ``title`` and ``description`` (trimmed, control characters
        escaped): the fields show what was saved, unless the person typed on meanwhile."""
        self._loaded = (title, description)
        if (self.title_input.value, self.body.text) != sent or sent == self._loaded:
            return
        title_at, body_at = self.title_input.cursor_position, self.body.cursor_location
        self.show_text(title, description, editing=self._editing)
        self.title_input.cursor_position = min(title_at, len(title))
        last = self.body.document.line_count - 1  # a trimmed line gone: the end of the text
        row, column = body_at if body_at[0] <= last else (last, len(self.body.document[last]))
        self.body.cursor_location = (row, min(column, len(self.body.document[row])))

    def savable(self) -> bool:
        """Whether a save can be asked for now (says why not, when not)."""
        raise NotImplementedError

    def post_save(self, *, leave: bool) -> None:
        raise NotImplementedError

    def action_select_field(self) -> None:
        """Select the whole title or body, whichever has the focus: typing then replaces it."""
        if self.app.focused is self.body:
            self.body.select_all()
        elif self.app.focused is self.title_input:
            self.title_input.select_all()

    def action_clear_field(self) -> None:
        """Empty the title or the body, whichever has the focus (the body's ctrl+z brings it back)."""
        if self.app.focused is self.body:
            self.body.select_all()
            self.body.delete(*self.body.selection)
        elif self.app.focused is self.title_input:
            self.title_input.value = ""

    def action_save(self) -> None:
        if self.savable():
            self.post_save(leave=False)

    def action_leave(self) -> None:
        if self.dirty and self.savable():
            self.post_save(leave=True)  # the screen goes back once the save succeeds
        else:
            self.post_message(self.Leave())
