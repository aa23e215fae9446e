"""Yes or no, for actions that drop work (regrouping from scratch)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class Confirm(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            if self.detail:
                yield Label(self.detail, classes="dialog-context")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Yes  y", id="yes", variant="primary", action="screen.answer(True)")
                yield Button("No  n", id="no", action="screen.answer(False)")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
