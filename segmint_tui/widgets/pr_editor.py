"""The PR pane: the pull-request draft's title and description, editable and copyable."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Input, Label, Static, TextArea

from segmint_core.session.models import PullRequestDraft
from segmint_core.wording import counted
from segmint_tui.widgets.title_body import TitleBodyEditor


class PrEditor(TitleBodyEditor):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save draft", priority=True),
        Binding("ctrl+g", "screen.generate_pr", "Generate", priority=True),
        Binding("ctrl+y", "copy", "Copy", priority=True),
    ]

    class Save(Message):
        def __init__(self, title: str, description: str) -> None:
            super().__init__()
            self.title = title
            self.description = description

    ID_PREFIX = "pr"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.draft: PullRequestDraft | None = None

    def compose(self) -> ComposeResult:
        yield Static("No pull-request draft yet: generate one with ctrl+g.", id="pr-heading")
        yield Label("Title")
        yield Input(placeholder="pull-request title", id="pr-title")
        yield Label("Description")
        yield TextArea(id="pr-body", soft_wrap=True, tab_behavior="focus")
        with Horizontal(id="pr-buttons"):
            yield Button("Generate  ctrl+g", id="pr-generate", action="screen.generate_pr")
            yield Button("Save  ctrl+s", id="pr-save", variant="primary")
            yield Button("Copy  ctrl+y", id="pr-copy")

    @property
    def markdown(self) -> str:
        """The draft as one text: what copy puts on the clipboard."""
        return f"# {self.title_input.value}\n\n{self.body.text}".rstrip() + "\n"

    def load(self, draft: PullRequestDraft | None) -> None:
        if draft is not None and self.draft is not None and self.dirty:
            self.draft = draft
            return
        self.draft = draft
        title, body = (draft.title, draft.description) if draft else ("", "")
        self.show_text(title, body, editing=draft is not None)
        heading = self.query_one("#pr-heading", Static)
        if draft is None:
            heading.update("No pull-request draft yet: generate one with ctrl+g.")
        else:
            count = len(draft.commits)
            note = f" · {draft.note}" if draft.note else ""
            heading.update(f"Pull-request draft over {counted(count, 'commit')}{note}")

    def action_save(self) -> None:
        if self.draft is None:
            self.notify("There is no pull-request draft yet: generate one first", severity="warning")
            return
        self.post_message(self.Save(self.title_input.value, self.body.text))

    def action_copy(self) -> None:
        if self.draft is None:
            self.notify("There is no pull-request draft to copy yet", severity="warning")
            return
        self.app.copy_to_clipboard(self.markdown)
        self.notify("Pull-request draft copied to the clipboard")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "pr-save":
            self.action_save()
        elif event.button.id == "pr-copy":
            self.action_copy()
