"""The main screen: groups and commits on the left, diff / message / PR on the right,
the activity panel and the footer below.

The screen holds no session state of its own: ``sync`` redraws every pane from
the session after each session event (coalesced, so a burst of events is one
redraw), and the panes keep the person's place (cursor, expanded nodes,
unsaved text) across redraws.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.notifications import Notification, Notify
from textual.screen import Screen
from textual.widgets import (
    Footer,
    Header,
    Label,
    OptionList,
    ProgressBar,
    Static,
    TabbedContent,
    TabPane,
    Tree,
)

from segmint_core.errors import SegmintError
from segmint_core.rewrite import split
from segmint_core.session.models import APPLIED, AWAITING_APPROVAL
from segmint_core.session.session import Session
from segmint_core.session.splitting import SPLIT_ID
from segmint_core.unfinished import conflict_warning
from segmint_core.wording import counted
from segmint_tui.commit_diff import CommitDiff, commit_parts
from segmint_tui.diff_render import DiffDocument, build_document, message_document
from segmint_tui.groups_model import GroupRow, group_rows
from segmint_tui.line_parts import elsewhere_of
from segmint_tui.messages import GroupingProgress, SessionChanged
from segmint_tui.screens.session_actions import SessionActions
from segmint_tui.widgets.activity_panel import ActivityPanel
from segmint_tui.widgets.commit_editor import CommitEditor
from segmint_tui.widgets.commits_list import CommitsList, check_detail, failure_text
from segmint_tui.widgets.diff_search import DiffSearch
from segmint_tui.widgets.diff_view import DiffView
from segmint_tui.widgets.groups_tree import (
    FILE,
    GROUP,
    REASON,
    GroupsTree,
    NodeRef,
)
from segmint_tui.widgets.pr_editor import PrEditor

TABS = {"diff": "diff-tab", "message": "message-tab", "pr": "pr-tab"}
NARROW_BELOW = 100  # columns: below this, the two sides take turns at the width
APPROVAL_SECONDS = 600.0  # an approval request stays up until answered (then it is taken down)
DIFF_ROW_ACTIONS = {"comment", "move_hunks", "move_to_new_group"}  # act on the diff's cursor row


class MainScreen(SessionActions, Screen):
    # Work everywhere; hidden from the footer, which shows the focused pane's keys
    # (the panes repeat the ones that belong to them with show=True).
    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("1", "focus_pane('groups')", "Groups", show=False),
        Binding("2", "focus_pane('commits')", "Commits", show=False),
        Binding("3", "focus_pane('diff')", "Diff", show=False),
        Binding("4", "edit_message", "Message", show=False),
        Binding("5", "focus_pane('pr')", "PR", show=False),
        Binding("g", "regroup", "Regroup", show=False),
        Binding("G", "refine", "Refine with model", show=False),
        Binding("p", "propose", "Propose", show=False),
        Binding("u", "undo", "Undo operation", show=False),
        Binding("z", "undo_move", "Undo move", show=False),
        Binding("C", "check_commits", "Check commits", show=False),
        Binding("F", "fix_commits", "Fix commits", show=False),
        Binding("d", "next_uncertain", "Next uncertain", show=False),
        Binding("o", "accept_alternative", "Accept alternative", show=False),
        Binding("slash", "search_diff", "Search the diff", show=False),
        Binding("r,f5", "refresh", "Refresh", show=False),
        Binding("P", "generate_pr", "Draft PR", show=False),
        Binding("i", "say_intent", "Now working on", show=False),
        Binding("I", "finish_intent", "Task finished", show=False),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    # Short terminals: the activity panel, then the header, give their rows to the panes (app.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (12, "-short"), (20, "-tall")]
    # Narrow terminals: the diff, message or PR pane in use takes the whole width (app.tcss, "-reading").
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]

    def __init__(self) -> None:
        super().__init__()
        self._sync_pending = False
        self._told_waiting: dict[str, Notification] = {}  # commits awaiting approval, and the toast telling of each
        self._diff_source = "groups"  # which list the diff pane follows
        self._shown_rows: list[GroupRow] | None = None  # the tree rows the diff was last built from
        self._last_pane = "groups"  # where escape in the PR pane goes back to
        self._commit_diffs: dict[str, CommitDiff] = {}  # an applied commit's diff from git, by sha
        self._told_conflicts: str | None = None  # the conflicted files last told of

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="panes"):
            with Vertical(id="left"):
                with Vertical(id="groups-pane", classes="pane"):
                    with Horizontal(id="grouping"):
                        yield Label("Grouping…", id="grouping-label")
                        yield ProgressBar(id="grouping-bar", show_eta=False)
                    yield Static(id="groups-empty", classes="empty-note")
                    yield GroupsTree(id="groups")
                with Vertical(id="commits-pane", classes="pane"):
                    yield Static(id="commits-empty", classes="empty-note")
                    yield CommitsList(id="commits")
            with TabbedContent(id="right", initial="diff-tab"):
                with TabPane("Diff", id="diff-tab"):
                    yield DiffView(id="diff")
                    yield DiffSearch(id="diff-search")
                with TabPane("Message", id="message-tab"):
                    yield CommitEditor(id="editor")
                with TabPane("PR", id="pr-tab"):
                    yield PrEditor(id="pr")
        yield ActivityPanel(id="activity")
        yield Footer()

    # -- parts ------------------------------------------------------------------------

    @property
    def tree(self) -> GroupsTree:  # type: ignore[override]  # the groups pane, not Textual's DOM tree it shadows
        return self.query_one(GroupsTree)

    @property
    def commits(self) -> CommitsList:
        return self.query_one(CommitsList)

    @property
    def diff(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def editor(self) -> CommitEditor:
        return self.query_one(CommitEditor)

    @property
    def pr_editor(self) -> PrEditor:
        return self.query_one(PrEditor)

    def on_mount(self) -> None:
        self.query_one("#groups-pane").border_title = "1 Groups"
        self.query_one("#commits-pane").border_title = "2 Commits"
        self.query_one("#grouping").display = False
        if self.session is None:  # opening in the background: say so, with a moving bar
            self.query_one("#grouping").display = True
            self.query_one("#grouping-label", Label).update("Reading the changes from git…")
            self.query_one("#grouping-bar", ProgressBar).update(total=None)
            self.query_one(ActivityPanel).update("Reading the changes from git…")
        else:
            self.session_opened()

    def session_opened(self) -> None:
        if not self.segmint.grouping:
            self.query_one("#grouping").display = False
        self.sync()
        self.tree.focus()
        self.refresh_bindings()  # check_action allowed only help and quitting until now; focus may not move

    # -- redraw from the session -------------------------------------------------------

    def on_session_changed(self, message: SessionChanged) -> None:
        event = message.event
        if event.kind == "messages":
            self.segmint.count_review_messages()
        self.request_sync()

    def request_sync(self) -> None:
        """Redraw from the session once the current burst of events is handled."""
        if not self._sync_pending:
            self._sync_pending = True
            self.call_later(self.sync)

    def sync(self) -> None:
        self._sync_pending = False
        session = self.session
        self.tree.populate(group_rows(session), waiting=self.segmint.grouping and not session.groups)
        self.commits.populate(list(session.plans))
        self.editor.load(self.commits.highlighted_plan)
        self.pr_editor.load(session.pr, session.plans)
        self.refresh_activity()
        self._show_empty_notes()
        self.show_selection(keep_position=True)
        self._tell_new_approvals()
        self._tell_conflicts()
        # After the frame that shows the groups: made anew (a saved session), the evidence is
        # a second of work that would share the interpreter with that frame's drawing.
        self.call_after_refresh(self.read_confidence)

    def _show_empty_notes(self) -> None:
        """An empty list says why, and what to press."""
        session = self.session
        groups, commits = self.query_one("#groups-empty", Static), self.query_one("#commits-empty", Static)
        groups.display = not self.tree.rows and not session.changes
        if groups.display:
            undo = " u undoes the last commit." if any(p.status == APPLIED for p in session.plans) else ""
            groups.update("Nothing to commit: the working tree is clean." + undo)
        commits.display = not session.plans and bool(session.changes)
        if commits.display:
            commits.update("No commits yet: p proposes one per group.")

    def _tell_conflicts(self) -> None:
        """Conflicted files a merge or rebase left: in the header for as long as they are there, and
        once in a toast, since no commit can be made until they are resolved."""
        warning = conflict_warning(self.session.git, self.session.changes)
        self.app.sub_title = describe(self.session) + (f" · ⚠ {warning}" if warning else "")
        if warning is not None and warning != self._told_conflicts:
            self.notify(warning, title="Conflicts", severity="warning", timeout=12, markup=False)
        self._told_conflicts = warning

    def _tell_new_approvals(self) -> None:
        """Tell once of each commit an agent asks to make, however the request arrived
        (this app's MCP server, or another process's session save), until it is answered:
        then the toast goes, so it never covers the screen with a question already settled."""
        waiting = {p.id for p in self.session.plans if p.status == AWAITING_APPROVAL}
        said = split_under_way(self.session)
        if said and said.endswith("a approves"):
            waiting.add(SPLIT_ID)
        for commit in sorted(waiting - set(self._told_waiting)):
            asked = "apply the split under way" if commit == SPLIT_ID else f"commit {commit}"
            toast = Notification(
                f"The agent asks to {asked}: approve it with a in the commits pane",
                title="Approval waiting",
                severity="warning",
                timeout=APPROVAL_SECONDS,
            )
            self.app.post_message(Notify(toast))
            self._told_waiting[commit] = toast
        for commit in sorted(set(self._told_waiting) - waiting):
            _take_down(self.app, self._told_waiting.pop(commit))

    def refresh_activity(self) -> None:
        app = self.segmint
        panels = self.query(ActivityPanel)
        if self.session is None or not panels:  # a worker's refresh, come as the app closes its screen
            return
        panels.first().show(
            list(self.session.activity),
            list(self.session.plans),
            pairing=app.pairing.status,
            paired=app.pairing.info is not None,
            messages=app.review_messages,
            # (saves are seen by the disk watcher: without it, nothing to say)
            recording=app.saves.status() if app.saves and app.watch_disk else "",
        )

    # -- what the diff pane shows ---------------------------------------------------------

    def show_selection(self, *, keep_position: bool = False) -> None:
        if self.session is None:
            return
        if self._diff_source == "commits" and self.commits.highlighted_plan is not None:
            document = self._plan_document()
        else:
            document = self._tree_document(self.tree.cursor_ref)
        self.diff.show(document, keep_position=keep_position)
        self._shown_rows = self.tree.rows

    def _tree_document(self, ref: NodeRef | None) -> DiffDocument:
        if ref is None:
            if not self.session.changes:
                return message_document("The working tree is clean: nothing to commit.")
            return message_document("Select a group, file or hunk.")
        row = self.tree.row(ref.group_id)
        if row is None:
            return message_document("Select a group, file or hunk.")
        if ref.kind in (GROUP, REASON):
            return self._live_document(row.parts(), _group_title(row), ref.key)
        f = row.file(ref.change_id or "")
        if f is None:
            return message_document("This file left the group.")
        if ref.kind == FILE:
            return self._live_document([(f.change, f.hunks)], None, ref.key)
        hunks = [h for h in f.hunks if h.id == ref.hunk_id]
        return self._live_document([(f.change, hunks)], None, ref.key)

    def _live_document(self, parts, title: list[Text] | None, key: object) -> DiffDocument:
        """The working tree's hunks; a part of a split hunk shows where its other lines went."""
        elsewhere = elsewhere_of(self.session, [h for _, hunks in parts for h in hunks])
        return build_document(parts, title, key=key, elsewhere=elsewhere)

    def _plan_document(self) -> DiffDocument:
        plan = self.commits.highlighted_plan
        assert plan is not None  # shown only for a highlighted plan
        title = [Text(plan.title, "bold")]
        if plan.status == APPLIED and plan.sha:
            return self._commit_document(plan.sha, title)
        failure = failure_text(plan)
        if failure is not None:
            title.append(
                Text(f"out of date ({plan.why_out_of_date}): p proposes again", "#e5c07b")
                if plan.out_of_date
                else Text.assemble(("failed: ", "bold #ff6b6b"), failure)
            )
        title += check_detail(plan)
        parts = self.session.parts(plan.hunk_ids, plan.change_ids)
        return self._live_document(parts, title, ("plan", plan.id))

    def _commit_document(self, sha: str, title: list[Text]) -> DiffDocument:
        """An applied commit's own diff, from git: its hunk ids name hunks that are gone
        (a refresh gives them to the changes still in the working tree)."""
        title.append(Text(f"applied as {sha[:7]}: the diff of that commit", "dim"))
        if sha not in self._commit_diffs:
            self._read_commit_diff(sha)
        found = self._commit_diffs[sha]
        if isinstance(found, str):
            return build_document([], title + [Text(found, "italic")], key=("commit", sha), live=False)
        return build_document(found, title, key=("commit", sha), live=False)

    def _read_commit_diff(self, sha: str) -> None:
        self._commit_diffs[sha] = f"reading the diff of {sha[:7]}…"

        def read() -> CommitDiff:
            try:
                return commit_parts(self.session.git, sha)
            except SegmintError as exc:
                return f"could not read the diff of {sha[:7]}: {exc}"

        def done(found: CommitDiff) -> None:
            self._commit_diffs[sha] = found
            if self.diff.document.key == ("commit", sha):
                self.show_selection(keep_position=True)

        self.call("show the commit", read, done)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        ref = self.tree.cursor_ref  # where the cursor is now (the event may be older)
        if (
            self._diff_source == "groups"
            and ref is not None
            and self.diff.document.key == ref.key
            and self._shown_rows is self.tree.rows
        ):
            # A redraw put the cursor back on the row the diff shows, built from
            # these very rows: building it again would cost as much as the first time.
            return
        same = self._diff_source == "groups" and ref is not None and self.diff.document.key == ref.key
        self._diff_source = "groups"
        # The same node again (a redraw): the diff keeps its cursor and line selection.
        self.show_selection(keep_position=same)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.commits:
            return
        self.editor.load(self.commits.highlighted_plan)
        if self.commits.has_focus:
            self._diff_source = "commits"
            self.show_selection()

    def on_descendant_focus(self, event) -> None:
        widget = event.widget
        right = self.query_one("#right")
        self.set_class(widget is right or right in widget.ancestors, "-reading")
        pane = {self.tree: "groups", self.commits: "commits", self.diff: "diff"}.get(widget)
        if pane is not None:
            self._last_pane = pane
        if widget in (self.tree, self.commits):
            # Back in a list, the person wants to see what it holds: the diff, not
            # the editor left open. (Only a focus change does this, never a redraw:
            # the agent's edits must not pull the PR editor away from the person.)
            self.query_one(TabbedContent).active = TABS["diff"]
        if widget is self.tree and self._diff_source != "groups":
            self._diff_source = "groups"
            self.show_selection()
        elif widget is self.commits and self._diff_source != "commits":
            self._diff_source = "commits"
            self.show_selection()

    def on_commit_editor_leave(self, event: CommitEditor.Leave) -> None:
        self.commits.focus()

    def on_pr_editor_leave(self, event: PrEditor.Leave) -> None:
        self.focus_pane(self._last_pane)

    # -- regrouping progress ------------------------------------------------------------

    def on_grouping_progress(self, message: GroupingProgress) -> None:
        box = self.query_one("#grouping")
        if message.total <= 0:
            box.display = False
            return
        box.display = True
        self.query_one("#grouping-label", Label).update(f"Grouping: {message.text}")
        self.query_one("#grouping-bar", ProgressBar).update(total=message.total, progress=message.done)

    # -- focus ----------------------------------------------------------------------------

    def focused_pane(self) -> str | None:
        focused = self.app.focused
        for name, widget in (("groups", self.tree), ("commits", self.commits), ("diff", self.diff)):
            if focused is widget:
                return name
        return None

    def focus_pane(self, name: str) -> None:
        tabs = self.query_one(TabbedContent)
        if name == "groups":
            self.tree.focus()
        elif name == "commits":
            self.commits.focus()
        elif name == "diff":
            tabs.active = TABS["diff"]
            self.diff.focus()
        elif name == "message":
            tabs.active = TABS["message"]
            self.editor.focus_title()
        elif name == "pr":
            tabs.active = TABS["pr"]
            self.pr_editor.focus_title()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.session is None:  # still opening: only help and quitting
            return action in ("help", "focus_pane", "quit")
        # An applied commit's diff is history: no comments or moves from its rows.
        if action in DIFF_ROW_ACTIONS and self.app.focused is self.diff and not self.diff.document.live:
            return False
        return True

    def action_focus_pane(self, name: str) -> None:
        self.focus_pane(name)

    def action_edit_message(self) -> None:
        if self.commits.highlighted_plan is None:
            self.notify("No commit to edit: propose commits with p", severity="warning")
            return
        self.editor.load(self.commits.highlighted_plan)
        self.focus_pane("message")

    def action_help(self) -> None:
        from segmint_tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(everywhere=type(self)))


def _take_down(app, toast: Notification) -> None:
    # Textual has no public call to withdraw one notification; this is what its toasts do on expiry.
    if toast in app._notifications:
        app._unnotify(toast)


def _group_title(row: GroupRow) -> list[Text]:
    title = [Text.assemble((f"{row.id}  ", "dim"), (row.summary, "bold"))]
    title.extend(Text.assemble(("  why: ", "dim"), (reason, "italic")) for reason in row.reasons)
    return title


def describe(session: Session) -> str:
    """The header's line: the repository's folder and branch, and the range a split under way rewrites."""
    root = Path(session.git.root)
    branch = session.git.head_ref()
    name = branch.removeprefix("refs/heads/") if branch else "detached"
    return f"{root.name} · {name}" + "".join(f" · {said}" for said in [split_under_way(session)] if said)


def split_under_way(session: Session) -> str | None:
    """ "Splitting 3f2a1c9..9e0d1b2 (4 commits)" (one commit: "Splitting 3f2a1c9 (1 commit)"), and whether the agent asks to apply it; None with no split."""
    try:
        state = split.pending(session.git)
    except SegmintError:
        return None
    if state is None:
        return None
    said = f"Splitting {state.label} ({counted(len(state.originals), 'commit')})"
    return said + (": the agent asks to apply it, a approves" if state.awaiting else "")
