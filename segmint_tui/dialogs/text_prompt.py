"""Ask for one line of text: a group's new name, a comment for the agent."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class TextPrompt(ModalScreen[str | None]):
    """Returns the text (stripped; empty text is refused here), or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, *, value: str = "", placeholder: str = "", context: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder
        self.context = context

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # A file's name as written: read as markup, a [/] in it stopped the app.
            yield Label(self.title_text, classes="dialog-title", markup=False)
            if self.context:
                yield Label(self.context, classes="dialog-context", markup=False)
            yield Input(value=self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("enter saves · esc cancels", classes="dialog-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.notify("Type something first (esc cancels)", severity="warning")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
