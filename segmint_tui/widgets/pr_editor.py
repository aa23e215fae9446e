"""The PR pane: the pull-request draft's title and description, editable and copyable.

The heading says when the draft no longer matches the commits (one it lists was
undone or dropped, or a commit was applied that it does not list)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Label, Static

from segmint_core.session.models import APPLIED, CommitPlan, PullRequestDraft
from segmint_core.wording import counted
from segmint_tui.widgets.title_body import TitleBodyEditor, body_area, title_input

STALE = "stale: press ctrl+g to redraft"


def draft_is_stale(draft: PullRequestDraft, plans: list[CommitPlan]) -> bool:
    """A commit the draft lists is gone, no longer the commit it was or has another message,
    or one was applied that it omits."""
    current = {p.id: p for p in plans}
    listed = {c.id for c in draft.commits}
    for commit in draft.commits:
        plan = current.get(commit.id)
        if plan is None:
            return True
        if commit.status == APPLIED and (plan.status != APPLIED or plan.sha != commit.sha):
            return True
        if (plan.title, plan.description) != (commit.title, commit.description):
            return True  # its message was edited since
    return any(p.status == APPLIED and p.id not in listed for p in plans)


class PrEditor(TitleBodyEditor):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save draft", priority=True),
        Binding("ctrl+g", "screen.generate_pr", "Generate", priority=True),
        Binding("ctrl+y", "copy", "Copy", priority=True),
        Binding("escape", "leave", "Save and back"),
    ]

    class Save(Message):
        def __init__(self, title: str, description: str, *, leave: bool = False) -> None:
            super().__init__()
            self.title = title
            self.description = description
            self.leave = leave  # go back to the previous pane once saved

    class Leave(Message):
        pass

    ID_PREFIX = "pr"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.draft: PullRequestDraft | None = None

    def compose(self) -> ComposeResult:
        yield Static("No pull-request draft yet: generate one with ctrl+g.", id="pr-heading")
        yield Label("Title")
        yield title_input("pull-request title", "pr-title")
        yield Label("Description")
        yield body_area("pr-body")
        with Horizontal(id="pr-buttons"):
            yield Button("Generate  ctrl+g", id="pr-generate", action="screen.generate_pr")
            yield Button("Save  ctrl+s", id="pr-save", variant="primary")
            yield Button("Copy  ctrl+y", id="pr-copy")

    @property
    def markdown(self) -> str:
        """The draft as one text: what copy puts on the clipboard."""
        return f"# {self.title_input.value}\n\n{self.body.text}".rstrip() + "\n"

    def load(self, draft: PullRequestDraft | None, plans: list[CommitPlan], *, replace: bool = False) -> None:
        """Show ``draft``; unsaved edits are kept unless ``replace`` (a redraft the person asked for)."""
        keep_edits = draft is not None and self.draft is not None and self.dirty and not replace
        self.draft = draft
        if not keep_edits:
            title, body = (draft.title, draft.description) if draft else ("", "")
            self.show_text(title, body, editing=draft is not None)
        self._heading(plans)

    def _heading(self, plans: list[CommitPlan]) -> None:
        heading = self.query_one("#pr-heading", Static)
        draft = self.draft
        if draft is None:
            heading.update("No pull-request draft yet: generate one with ctrl+g.")
            return
        note = f" · {draft.note}" if draft.note else ""
        text = Text(f"Pull-request draft over {counted(len(draft.commits), 'commit')}{note}")
        if draft_is_stale(draft, plans):
            text.append(f"\n{STALE}", "bold #e5c07b")
        heading.update(text)

    def savable(self) -> bool:
        if self.draft is None:
            self.notify("There is no pull-request draft yet: generate one first", severity="warning")
            return False
        return True

    def post_save(self, *, leave: bool) -> None:
        self.post_message(self.Save(self.title_input.value, self.body.text, leave=leave))

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
