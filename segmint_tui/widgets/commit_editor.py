"""The commit message editor: the highlighted commit's title (one line) and body (a TextArea).

Edits stay local until saved (ctrl+s, leaving with escape, or highlighting another
commit); a save goes to the session as ``update_commit``. A save the session refuses (an empty title)
keeps the editor open. A message the agent changes meanwhile
replaces the editor's text only when the person has no unsaved edit there.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from segmint_core.session.models import APPLIED, CommitPlan
from segmint_tui.widgets.commits_list import failure_text, status_text
from segmint_tui.widgets.title_body import TitleBodyEditor, body_area, title_input


class CommitEditor(TitleBodyEditor):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save message", priority=True),
        Binding("escape", "leave", "Save and back"),
    ]

    class Save(Message):
        def __init__(self, commit_id: str, title: str, description: str, *, leave: bool = False) -> None:
            super().__init__()
            self.commit_id = commit_id
            self.title = title
            self.description = description
            self.leave = leave  # go back to the commits once saved

    class Leave(Message):
        pass

    ID_PREFIX = "commit"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.plan: CommitPlan | None = None

    def compose(self) -> ComposeResult:
        yield Static("No commit selected: propose commits with p.", id="commit-heading")
        yield Label("Title")
        yield title_input("type(scope): what this commit does", "commit-title")
        yield Label("Body")
        yield body_area("commit-body")
        with Horizontal(id="commit-buttons"):
            yield Button("Save  ctrl+s", id="commit-save", variant="primary")
            yield Button("Approve", id="commit-approve", action="screen.approve")
            yield Button("Commit", id="commit-apply", variant="success", action="screen.apply_commit")

    def load(self, plan: CommitPlan | None) -> None:
        """Show ``plan``; keeps unsaved text if it is the same commit."""
        same = plan is not None and self.plan is not None and plan.id == self.plan.id
        if same and self.dirty:
            self.plan = plan
            self._heading()
            return
        if plan is not None and self.dirty and self.savable():
            self.post_save(leave=False)  # another commit highlighted: what was typed is kept, as escape keeps it
        self.plan = plan
        title, body = (plan.title, plan.description) if plan else ("", "")
        self.show_text(title, body, editing=plan is not None)
        read_only = plan is None or plan.status == APPLIED  # an applied message is history
        self.title_input.disabled = read_only
        self.body.read_only = read_only
        self._heading()

    def _heading(self) -> None:
        heading = self.query_one("#commit-heading", Static)
        if self.plan is None:
            heading.update("No commit selected: propose commits with p.")
            return
        plan = self.plan
        text = Text.assemble(
            (f"{plan.id} ", "bold"), status_text(plan), (f"  groups: {', '.join(plan.change_group_ids)}", "dim")
        )
        failure = failure_text(plan)
        if failure is not None:
            text.append("\n")
            text.append_text(failure)
        heading.update(text)

    def savable(self) -> bool:
        if self.plan is None:
            self.notify("No commit selected", severity="warning")
            return False
        if self.plan.status == APPLIED:
            self.notify(f"{self.plan.id} is already applied; undo it to edit", severity="warning")
            return False
        return True

    def post_save(self, *, leave: bool) -> None:
        assert self.plan is not None
        self.post_message(self.Save(self.plan.id, self.title_input.value, self.body.text, leave=leave))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "commit-save":
            self.action_save()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.body.focus()
