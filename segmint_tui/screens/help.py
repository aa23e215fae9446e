"""The help screen (``?``): every pane's keys, read from the panes' own BINDINGS."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from segmint_tui.widgets.commit_editor import CommitEditor
from segmint_tui.widgets.commits_list import CommitsList
from segmint_tui.widgets.diff_view import DiffView
from segmint_tui.widgets.groups_tree import GroupsTree
from segmint_tui.widgets.pr_editor import PrEditor

GENERAL = [
    ("ctrl+p", "Command palette: every action by name"),
    ("tab / shift+tab", "Next / previous pane"),
    ("1 2 3 4 5", "Groups, commits, diff, message, PR"),
    ("ctrl+q", "Quit"),
]


def panes():
    from segmint_tui.screens.main import MainScreen

    return [
        ("Everywhere", MainScreen),
        ("Groups", GroupsTree),
        ("Diff", DiffView),
        ("Commits", CommitsList),
        ("Commit message", CommitEditor),
        ("Pull request", PrEditor),
    ]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Static(Text("Segmint keys", style="bold"), classes="dialog-title")
            yield Static(self._table())
            yield Static("esc closes · the footer always shows the focused pane's keys", classes="dialog-hint")

    def _table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold #e5c07b", no_wrap=True)
        table.add_column()
        for key, text in GENERAL:
            table.add_row(key, text)
        everywhere = set()
        for title, widget in panes():
            table.add_row("", "")
            table.add_row(Text(title, style="bold underline"), "")
            for binding in widget.BINDINGS:
                if isinstance(binding, Binding) and binding.description:
                    if f"screen.{binding.action}" in everywhere:
                        continue    # a pane repeating a screen key for its footer: listed once
                    if title == "Everywhere":
                        everywhere.add(f"screen.{binding.action}")
                    keys = [self.app.get_key_display(binding.with_key(k.strip())) for k in binding.key.split(",")]
                    table.add_row(" / ".join(keys), binding.description)
        return table

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
