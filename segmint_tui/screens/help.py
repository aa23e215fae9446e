"""The help screen (``?``): every pane's keys, read from the panes' own BINDINGS.

Each key is named with its command-palette title where it has one (``catalog``),
which says more than the footer's one word.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

from segmint_tui.catalog import COMMANDS
from segmint_tui.widgets.commit_editor import CommitEditor
from segmint_tui.widgets.commits_list import CommitsList
from segmint_tui.widgets.diff_view import DiffView
from segmint_tui.widgets.groups_tree import GroupsTree
from segmint_tui.widgets.pr_editor import PrEditor

GENERAL = [
    ("ctrl+p", "Command palette: every action by name"),
    ("tab / shift+tab", "Next / previous pane"),
    ("1 2 3 4 5", "Groups, commits, diff, message, PR"),
    ("↑ ↓ / j k", "Move the cursor"),
    ("→ ← / l h", "Expand, collapse (groups pane)"),
    ("enter", "Edit the highlighted commit's message (commits pane)"),
    ("? / q", "This help / quit"),
]
TITLES = {command.action: command.title for command in COMMANDS}
COVERED_BY_GENERAL = {"help", "app.quit", "edit_message"}


def panes(everywhere: type[DOMNode]) -> list[tuple[str, type[DOMNode]]]:
    """The help's sections: ``everywhere``, the screen whose keys work in every pane, then each pane."""
    return [
        ("Everywhere", everywhere),
        ("Groups", GroupsTree),
        ("Diff", DiffView),
        ("Commits", CommitsList),
        ("Commit message", CommitEditor),
        ("Pull request", PrEditor),
    ]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help")]

    def __init__(self, everywhere: type[DOMNode]) -> None:
        super().__init__()
        self.everywhere = everywhere  # the screen it is opened from, whose keys work in every pane

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Static(Text("Segmint keys", style="bold"), classes="dialog-title")
            yield Static(self._layout())
            yield Static("esc closes · the footer always shows the focused pane's keys", classes="dialog-hint")

    def _layout(self) -> Table:
        general, everywhere, groups, diff, *rest = [("General", GENERAL), *self._pane_sections()]
        layout = Table.grid(padding=(0, 4))
        layout.add_row(self._column([general, everywhere, diff]), self._column([groups, *rest]))
        return layout

    def _pane_sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        # Panes repeat some of these keys for their footers; a pane's own key for such an action
        # (ctrl+g in the PR pane, where P is typed) is listed with the pane.
        screen_wide = {b.action: set(b.key.split(",")) for b in self.everywhere.BINDINGS if isinstance(b, Binding)}
        sections = []
        for title, widget in panes(self.everywhere):
            rows = []
            for binding in widget.BINDINGS:
                if not isinstance(binding, Binding) or not (binding.show or widget is self.everywhere):
                    continue
                action = binding.action
                pressed = {k.strip() for k in binding.key.split(",")}
                if widget is not self.everywhere and pressed <= screen_wide.get(action.removeprefix("screen."), set()):
                    continue
                if action in COVERED_BY_GENERAL or action.startswith("focus_pane"):
                    continue
                keys = [self.app.get_key_display(binding.with_key(k.strip())) for k in binding.key.split(",")]
                rows.append((" / ".join(keys), TITLES.get(action.removeprefix("screen."), binding.description)))
            sections.append((title, rows))
        return sections

    def _column(self, sections) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold #e5c07b", no_wrap=True)
        table.add_column()
        for n, (title, rows) in enumerate(sections):
            if n:
                table.add_row("", "")
            table.add_row(Text(title, style="bold underline"), "")
            for key, text in rows:
                table.add_row(key, text)
        return table

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
