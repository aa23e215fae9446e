"""What the commit editor and the PR pane share: a title (one line) and a body
(a TextArea), edited locally until saved. Text that comes from the session
while the person has unsaved edits does not overwrite them."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Input, TextArea


class TitleBodyEditor(Vertical):
    ID_PREFIX = ""   # the inputs are #<prefix>-title and #<prefix>-body

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._loaded: tuple[str, str] = ("", "")
        self._editing = False   # something (a commit, a draft) is loaded

    @property
    def title_input(self) -> Input:
        return self.query_one(f"#{self.ID_PREFIX}-title", Input)

    @property
    def body(self) -> TextArea:
        return self.query_one(f"#{self.ID_PREFIX}-body", TextArea)

    @property
    def dirty(self) -> bool:
        return self._editing and (self.title_input.value, self.body.text) != self._loaded

    def show_text(self, title: str, body: str, *, editing: bool) -> None:
        """Load the saved text (what ``dirty`` compares against)."""
        self._editing = editing
        self._loaded = (title, body)
        if self.title_input.value != title:
            self.title_input.value = title
        if self.body.text != body:
            self.body.load_text(body)

    def mark_saved(self, title: str, description: str) -> None:
        self._loaded = (title, description)
