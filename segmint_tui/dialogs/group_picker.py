"""Pick a target group (for a move or a merge), or a new group."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from segmint_tui.groups_model import UNGROUPED, GroupRow

NEW_GROUP = "__new__"


class GroupPicker(ModalScreen[str | None]):
    """Returns a group id, ``NEW_GROUP``, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, title: str, rows: list[GroupRow], *, exclude: AbstractSet[str] = frozenset(), allow_new: bool = True
    ) -> None:
        super().__init__()
        self.title_text = title
        self.rows = [r for r in rows if r.id not in exclude and r.id != UNGROUPED]
        self.allow_new = allow_new

    def compose(self) -> ComposeResult:
        options = [Option(Text.assemble((r.id + "  ", "dim"), r.summary), id=r.id) for r in self.rows]
        if self.allow_new:
            options.append(Option(Text("+ new group", "bold"), id=NEW_GROUP))
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield OptionList(*options, id="picker")
            yield Label("enter picks · esc cancels", classes="dialog-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
