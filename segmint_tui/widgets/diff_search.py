"""The diff pane's search bar (``/``): typing finds, enter or ↓ the next match, ↑ the previous, esc closes.

It sits under the diff, hidden until ``/``; the term is kept for the next
``/``. The cursor of the diff moves to each match, so ``v``, ``m`` and ``c``
act right there once the bar is closed.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from segmint_tui.widgets.diff_view import DiffView


class DiffSearch(Input):
    BINDINGS = [
        Binding("down", "next_match", "Next match"),
        Binding("up", "previous_match", "Previous match"),
        Binding("escape", "close", "Close search"),
    ]
    DEFAULT_CSS = """
    DiffSearch { display: none; height: 1; border: none; padding: 0 1; background: $boost; }
    DiffSearch:focus { border: none; }
    DiffSearch.-missing { color: $error; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="search the diff: enter / ↓ next, ↑ previous, esc closes", id=id)

    @property
    def view(self) -> DiffView:
        return self.screen.query_one(DiffView)

    def open(self) -> None:
        self.display = True
        self.focus()
        self.select_all()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._find(1, here=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._find(1)

    def action_next_match(self) -> None:
        self._find(1)

    def action_previous_match(self) -> None:
        self._find(-1)

    def action_close(self) -> None:
        self.display = False
        self.view.focus()

    def _find(self, step: int, *, here: bool = False) -> None:
        found = not self.value or self.view.find(self.value, step, here=here)
        self.set_class(not found, "-missing")
