"""The main screen's actions: each one is a session call, run in a worker thread.

Nothing here changes what is shown directly: the session announces every change,
and the screen redraws from the session (``MainScreen.sync``). That is what
makes the person's and the agent's edits look the same on screen. Failures
come back as notifications (see ``SegmintApp.call_session``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from segmint_core.errors import SegmintError
from segmint_core.rewrite import split
from segmint_core.session.confidence import DoubtKind
from segmint_core.session.models import APPLIED, APPROVED, AWAITING_APPROVAL
from segmint_core.wording import counted, shown
from segmint_tui.dialogs.confirm import Confirm
from segmint_tui.dialogs.group_picker import NEW_GROUP, GroupPicker
from segmint_tui.dialogs.text_prompt import TextPrompt
from segmint_tui.editor import open_editor
from segmint_tui.groups_model import UNGROUPED
from segmint_tui.host import SessionHost
from segmint_tui.widgets.diff_view import DiffView
from segmint_tui.widgets.groups_tree import REASON, GroupsTree

if TYPE_CHECKING:
    from textual.screen import Screen

    from segmint_tui.widgets.commit_editor import CommitEditor
    from segmint_tui.widgets.commits_list import CommitsList
    from segmint_tui.widgets.pr_editor import PrEditor

    _Screen = Screen
else:
    _Screen = object


class SessionActions(_Screen):
    """Mixin for MainScreen (a ``Screen``, as the type checker is told): expects ``tree``, ``commits``,
    ``diff``, ``editor``, ``pr_editor``, ``focus_pane`` and ``_last_pane`` (where the PR pane goes back to)."""

    if TYPE_CHECKING:  # MainScreen's, declared for the type checker
        _last_pane: str

        @property
        def tree(self) -> GroupsTree: ...  # type: ignore[override]  # the groups pane, not Textual's DOM tree

        @property
        def commits(self) -> CommitsList: ...

        @property
        def diff(self) -> DiffView: ...

        @property
        def editor(self) -> CommitEditor: ...

        @property
        def pr_editor(self) -> PrEditor: ...

        def focused_pane(self) -> str | None: ...

        def focus_pane(self, name: str) -> None: ...

        def refresh_activity(self) -> None: ...

    @property
    def segmint(self) -> SessionHost:
        return cast(SessionHost, self.app)  # the app these screens run in, SegmintApp, which imports them

    @property
    def session(self):
        return self.segmint.session

    def call(self, label: str, fn, done=None):
        return self.segmint.call_session(label, fn, done)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity="information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Notifications here name titles, files and errors as written: never read as markup
        (a ``[/]`` in a commit title stopped the app)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # -- groups -------------------------------------------------------------------

    def _units_to_move(self) -> list[str]:
        if self.focused_pane() == "diff":
            if not self.diff.document.live:
                return []
            target = self.diff.target
            if target is not None and target.hunk is not None:
                return [target.hunk.id]
        return self.tree.selected_units()

    def action_toggle_mark(self) -> None:
        self.tree.action_toggle_mark()

    def _line_selection(self):
        """The diff pane's line selection when the diff has the focus, else None."""
        if self.focused_pane() != "diff":
            return None
        return self.diff.selection

    def action_move_hunks(self) -> None:
        selection = self._line_selection()
        if selection is not None:
            self._pick_group_for_lines(selection)
            return
        units = self._units_to_move()
        if not units:
            self.notify("Nothing to move: highlight or mark hunks first", severity="warning")
            return
        # Not offered: a group that already holds them all (the diff may show another group's hunk
        # than the one under the groups pane's cursor, when it follows the commits).
        here = {g.id for g in self.session.groups if set(units) <= {*g.hunk_ids, *g.change_ids}}
        label = f"Move {counted(len(units), 'hunk')} to"

        def picked(choice: str | None) -> None:
            if choice is None:
                return
            if choice == NEW_GROUP:
                self._move(units, None)
            else:
                self._move(units, choice)

        self.app.push_screen(GroupPicker(label, self.tree.rows, exclude=here), picked)

    def action_move_to_new_group(self) -> None:
        selection = self._line_selection()
        if selection is not None:
            self._move_lines(selection, None)
            return
        units = self._units_to_move()
        if not units:
            self.notify("Nothing to move: highlight or mark hunks first", severity="warning")
            return
        self._move(units, None)

    def _move(self, units: list[str], group_id: str | None) -> None:
        def done(group) -> None:
            self.tree.clear_marks()
            self.notify(f"Moved {counted(len(units), 'hunk')} to {group.id}")

        if group_id is None:
            self.call("move hunks", lambda: self.session.move_hunks(units, new_group=True), done)
        else:
            self.call("move hunks", lambda: self.session.move_hunks(units, to_group_id=group_id), done)

    # -- confidence: the decisions the engine is least sure of ---------------------------

    def read_confidence(self) -> None:
        """Work out the session's confidence off the screen's thread (the evidence may take
        a second on a large tree), then mark what it doubts."""
        session = self.session
        if session is None or not session.groups:
            return

        def work() -> None:
            try:
                if not self.segmint.take_aside_evidence():
                    return
                found = session.confidence()
            except Exception:  # a concurrent refresh mid-read: the next sync reads it again
                return
            self.app.call_from_thread(self.tree.show_confidence, found)

        self.app.run_worker(work, thread=True, group="confidence", exclusive=True, exit_on_error=False)

    def _doubts(self) -> list:
        sure = self.tree.confidence
        return list(sure.uncertain) if sure is not None and sure.revision == self.session.revision else []

    def _doubt_here(self):
        """The uncertain decision about the hunk or group under the cursor, if any."""
        ref = self.tree.cursor_ref
        if ref is None:
            return None
        doubts = self._doubts()
        if ref.hunk_id is not None:
            return next((u for u in doubts if ref.hunk_id in u.hunk_ids), None)
        units = set(self.tree.units_of(ref))
        return next((u for u in doubts if u.group_id == ref.group_id or units & set(u.hunk_ids)), None)

    def action_next_uncertain(self) -> None:
        doubts = self._doubts()
        if not doubts:
            self.notify(
                "Nothing uncertain: every group is as sure as it gets" if self.session.groups else "No groups yet",
                severity="information",
            )
            return
        here = self._doubt_here()
        doubt = doubts[(doubts.index(here) + 1) % len(doubts)] if here in doubts else doubts[0]
        hunk = doubt.hunk_ids[0] if doubt.hunk_ids else None
        group = next((r.id for r in self.tree.rows if hunk in r.hunk_ids), doubt.group_id) if hunk else doubt.group_id
        self.focus_pane("groups")
        self.tree.reveal(group or "", hunk)
        self.notify(f"{doubt.text} ({round(100 * doubt.probability)}% likely). o: accept", title="Uncertain")

    def action_accept_alternative(self) -> None:
        doubt = self._doubt_here()
        if doubt is None:
            self.notify("No uncertain decision here: press d to go to the next one", severity="warning")
            return
        if doubt.kind == DoubtKind.MERGE:
            ids = [doubt.group_id, doubt.to_group_id]
            self.call(
                "merge groups",
                lambda: self.session.merge_groups(ids),
                lambda group: self.notify(f"Merged {', '.join(ids)} into {group.id}"),
            )
        else:
            self._move(list(doubt.hunk_ids), doubt.to_group_id)

    # -- lines --------------------------------------------------------------------

    def _pick_group_for_lines(self, selection) -> None:
        if not selection.positions:
            self.notify("The selection holds no added or removed line", severity="warning")
            return
        here = {g.id for g in self.session.groups if selection.hunk_id in g.hunk_ids}
        label = f"Move {counted(len(selection.positions), 'line')} of {selection.hunk_id} to"

        def picked(choice: str | None) -> None:
            if choice is not None:
                self._move_lines(selection, None if choice == NEW_GROUP else choice)

        self.app.push_screen(GroupPicker(label, self.tree.rows, exclude=here), picked)

    def _move_lines(self, selection, group_id: str | None) -> None:
        if not selection.positions:
            self.notify("The selection holds no added or removed line", severity="warning")
            return

        def done(moved) -> None:
            self.diff.action_clear_selection()
            self.notify(moved.sentence)

        hunk_id, positions = selection.hunk_id, selection.positions
        if group_id is None:
            self.call("move lines", lambda: self.session.move_lines(hunk_id, positions, new_group=True), done)
        else:
            self.call("move lines", lambda: self.session.move_lines(hunk_id, positions, to_group_id=group_id), done)

    # -- commits checked on their own --------------------------------------------------

    def action_check_commits(self) -> None:
        self._checked(fix=False)

    def action_fix_commits(self) -> None:
        self._checked(fix=True)

    def _checked(self, *, fix: bool) -> None:
        """Check the open commits (a command from the repository's files only once allowed), then with
        ``fix`` apply the verified fix as one edit, which z takes back."""
        from segmint_core.checking.command import allow, allowed, configured

        if not any(p.status != APPLIED for p in self.session.plans):
            self.notify("No commits to check: press p to propose them", severity="warning")
            return
        try:
            command = configured(self.session.git.root)
        except SegmintError as exc:
            self.notify(str(exc), title="Could not check the commits", severity="error", timeout=8)
            return
        if command is None or allowed(self.session.git.root, command):
            self._run_check(command, fix)
            return
        root = self.session.git.root

        def answered(yes: bool | None) -> None:
            if yes:
                allow(root, command)
                self._run_check(command, fix)

        self.app.push_screen(
            Confirm(
                f"Run `{command.text}` to check each commit?",
                "This repository's pyproject.toml asks for it. It runs with your permissions, "
                "in a scratch tree under .git/segmint/. Yes allows it for this repository.",
            ),
            answered,
        )

    def _run_check(self, command, fix: bool) -> None:
        session, app = self.session, self.app

        def progress(done: int, total: int, result) -> None:
            app.call_from_thread(self.notify, f"{result.commit_id} {result.mark} ({done}/{total})", timeout=2)

        def work():
            report = session.check_commits(command, progress=progress)
            if not fix or not report.failed:
                return report, None
            found = session.propose_fixes(report, command)
            if found.steps:
                session.fix_commits(found)
            return report, found

        def done(outcome) -> None:
            report, found = outcome
            if found is not None and found.steps:
                left = f"; still failing: {', '.join(found.left)}" if found.left else ""
                self.notify(f"Fixed: {found.sentence}{left}. z takes it back", title="Commits fixed")
            elif found is not None:
                self.notify("No fix was found that passes the check", severity="warning")
            elif report.failed:
                self.notify(
                    f"{counted(len(report.failed), 'commit')} of {len(report.results)} fail their check: "
                    f"{', '.join(r.commit_id for r in report.failed)}. F proposes a fix",
                    severity="warning",
                    timeout=8,
                )
            else:
                self.notify(f"No commit of {len(report.results)} fails its check")

        self.call("check the commits", work, done)

    def action_undo_move(self) -> None:
        self.call("undo the move", lambda: self.session.undo_move(), self.notify)

    # -- around the diff: search, the editor -------------------------------------------

    def action_search_diff(self) -> None:
        from segmint_tui.widgets.diff_search import DiffSearch

        self.focus_pane("diff")
        self.query_one(DiffSearch).open()

    def action_open_editor(self) -> None:
        where = self._editor_target()
        if where is None:
            self.notify("Highlight a file, hunk or diff line to open in the editor", severity="warning")
            return
        path, line = where
        try:
            opened = open_editor(self.app, self.session.git.root, path, line)
        except SegmintError as exc:
            self.notify(str(exc), title="Could not open the editor", severity="error", timeout=8)
            return
        if opened:
            self.notify(opened, severity="warning")
        self.action_refresh()

    def _editor_target(self) -> tuple[str, int | None] | None:
        """The file and line to edit: the diff's cursor row, or the highlighted hunk or file."""
        where = self._comment_target()
        if where is None:
            return None
        path, line, _ = where
        return path, line

    def action_merge_groups(self) -> None:
        marked = [g for g in self.tree.marked_groups() if g != UNGROUPED]
        if len(marked) >= 2:
            self._merge(marked)
            return
        ref = self.tree.cursor_ref
        if ref is None or ref.group_id == UNGROUPED:
            self.notify("Highlight a group (or mark two) to merge", severity="warning")
            return
        current = ref.group_id
        if not any(r.id not in (current, UNGROUPED) for r in self.tree.rows):
            self.notify(f"Nothing to merge {current} into: it is the only group", severity="warning")
            return

        def picked(choice: str | None) -> None:
            if choice is not None:
                self._merge([choice, current])

        self.app.push_screen(
            GroupPicker(f"Merge {current} into", self.tree.rows, exclude={current}, allow_new=False), picked
        )

    def _merge(self, group_ids: list[str]) -> None:
        def done(group) -> None:
            self.tree.clear_marks()
            self.notify(f"Merged {', '.join(group_ids)} into {group.id}")

        self.call("merge groups", lambda: self.session.merge_groups(group_ids), done)

    def action_rename_group(self) -> None:
        ref = self.tree.cursor_ref
        row = self.tree.row(ref.group_id) if ref is not None else None
        if row is None or row.id == UNGROUPED:
            self.notify("Highlight a group to rename", severity="warning")
            return

        def typed(summary: str | None) -> None:
            if summary is not None:
                self.call("rename the group", lambda: self.session.update_group(row.id, summary))

        self.app.push_screen(TextPrompt(f"Rename {row.id}", value=row.summary), typed)

    def action_regroup(self) -> None:
        if self.segmint.grouping:
            self.notify("Grouping is already running", severity="warning")
            return
        if not self.session.groups:
            self.segmint.start_grouping()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.segmint.start_grouping()

        self.app.push_screen(
            Confirm("Regroup all changes from scratch?", "Manual moves, renames and open commits are replaced."),
            answered,
        )

    def action_refine(self) -> None:
        """Ask the chat model to settle the groups; the session logs and shows what it did."""
        if not self.session.settings.chat_enabled:
            from segmint_core.grouping.refine import NO_MODEL

            self.notify(NO_MODEL, title="Could not refine the groups", severity="error", timeout=8)
            return
        if not self.session.groups:
            self.notify("No groups to refine: g groups the changes", severity="warning")
            return

        def done(refinement) -> None:
            if refinement.applied:
                self.notify("; ".join(refinement.applied), title=f"Refined with {refinement.model}", markup=False)
            else:
                self.notify(
                    "; ".join(refinement.notes) or "no group changed",
                    markup=False,
                    title=f"{refinement.model} changed no group",
                    severity="warning",
                    timeout=8,
                )

        self.notify(f"Asking {self.session.settings.chat_model} to refine the groups…")
        self.call("refine the groups", lambda: self.session.refine_groups(), done)

    # -- commits ------------------------------------------------------------------

    def action_propose(self) -> None:
        def done(plans) -> None:
            if not plans and not self.session.changes:  # a clean tree (all committed): nothing to go to
                self.notify("Nothing to propose: the working tree is clean", severity="warning")
                return
            self.notify(f"Proposed {counted(len(plans), 'commit')}")
            self.focus_pane("commits")

        self.call("propose commits", lambda: self.session.propose_commits(), done)

    def _plan(self):
        plan = self.commits.highlighted_plan
        if plan is None:
            self.notify("No commit highlighted: propose commits with p", severity="warning")
        return plan

    def _split_first(self) -> bool:
        """With a split under way and no open commit of the work tree's own, the commit keys (a, A, x, X)
        apply the split: its commits made, later commits replayed, the branch moved once."""
        if split.pending(self.session.git) is None or any(p.status != APPLIED for p in self.session.plans):
            return False
        self.action_apply_split()
        return True

    def action_apply_split(self) -> None:
        if split.pending(self.session.git) is None:
            self.notify("No split is under way: `segmint split REV` starts one", severity="warning")
            return

        def done(made) -> None:
            head = (self.session.git.head() or "")[:7]
            self.notify(f"Split into {counted(len(made), 'commit')}: the branch is at {head}; u takes it back")

        self.call("apply the split", lambda: self.session.apply_split(), done)

    def action_drop_split(self) -> None:
        if split.pending(self.session.git) is None:
            self.notify("No split is under way", severity="warning")
            return
        self.call("drop the split", lambda: self.session.abort_split(), lambda _: self.notify("Dropped the split"))

    def action_approve(self) -> None:
        if self._split_first():
            return
        plan = self._plan()
        if plan is not None:
            self._approve([plan.id])

    def action_approve_all(self) -> None:
        if self._split_first():
            return
        ids = [p.id for p in self.session.plans if p.status != APPLIED]
        if not ids:
            self.notify("No open commits to approve", severity="warning")
            return
        self._approve(ids)

    def _message_on_screen(self):
        """A session call saving the commit editor's unsaved message, to make before approving or
        committing: what is approved and committed is the message the person sees. None if saved."""
        editor = self.editor
        if editor.plan is None or editor.plan.status == APPLIED or not editor.dirty:
            return lambda: None
        commit, sent = editor.plan.id, (editor.title_input.value, editor.body.text)

        def saved(plan) -> None:
            if editor.plan is not None and editor.plan.id == plan.id:
                editor.mark_saved(plan.title, plan.description, sent=sent)

        def save() -> None:
            plan = self.session.update_commit(commit, title=sent[0], description=sent[1])
            self.app.call_later(saved, plan)

        return save

    def _approve(self, ids: list[str]) -> None:
        """Approve ``ids``; those the agent asked to commit are committed now (the agent
        is waiting for exactly this: its commit, with the person's approval)."""
        save = self._message_on_screen()

        def approve():
            save()
            waiting = [p.id for p in self.session.plans if p.id in ids and p.status == AWAITING_APPROVAL]
            self.session.approve(ids)
            return [self.session.apply_commit(c) for c in waiting]

        def done(outcomes) -> None:
            committed = "".join(f"; {o.message}" for o in outcomes)
            self.notify(f"Approved {', '.join(ids) if len(ids) < 4 else counted(len(ids), 'commit')}{committed}")

        self.call("approve", approve, done)

    def action_apply_commit(self) -> None:
        if self._split_first():
            return
        plan = self._plan()
        if plan is not None:
            save = self._message_on_screen()

            def apply():
                save()
                return self.session.apply_commit(plan.id)

            self.call(
                f"commit {plan.id}", apply, lambda outcome: self.notify(outcome.message or f"{plan.id} committed")
            )

    def action_apply_approved(self) -> None:
        if self._split_first():
            return
        if not any(p.status == APPROVED for p in self.session.plans):
            self.notify("No approved commits: approve with a (or A for all)", severity="warning")
            return

        def done(outcomes) -> None:
            shas = ", ".join((o.sha or "")[:7] for o in outcomes if o.sha)
            self.notify(f"Committed {counted(len(outcomes), 'commit')}" + (f": {shas}" if shas else ""))

        save = self._message_on_screen()

        def apply():
            save()
            return self.session.apply_all(approved_only=True)

        self.call("commit the approved commits", apply, done)

    def action_reorder(self, delta: int) -> None:
        plan = self._plan()
        if plan is None:
            return
        open_ids = [p.id for p in self.session.plans if p.status != APPLIED]
        if plan.id not in open_ids:
            self.notify(f"{plan.id} is applied; only open commits move", severity="warning")
            return
        i = open_ids.index(plan.id)
        j = max(0, min(len(open_ids) - 1, i + delta))
        if i == j:
            return
        open_ids[i], open_ids[j] = open_ids[j], open_ids[i]
        self.call(
            "reorder the commits",
            lambda: self.session.reorder_commits(open_ids),
            lambda _: self.commits.highlight(plan.id),
        )

    def action_absorb(self) -> None:
        def done(plan) -> None:
            folds = sum(1 for p in plan.plans if p.absorb_into)
            self.notify(
                f"Planned {counted(folds, 'fold')} into unpushed commits and "
                f"{counted(len(plan.plans) - folds, 'new commit')}"
            )
            self.focus_pane("commits")

        self.call("absorb", lambda: self.session.absorb(), done)

    def action_undo(self) -> None:
        self.call("undo", lambda: self.session.undo(), lambda outcome: self.notify(outcome.sentence()))

    def action_refresh(self) -> None:
        def done(report) -> None:
            self.notify(report.sentence() if report.changed else "Up to date: nothing changed on disk")

        self.call("refresh", lambda: self.session.refresh(), done)

    # -- what the person works on (segmint_tui.saves) ------------------------------------

    def action_say_intent(self) -> None:
        saves = self.segmint.saves
        if saves is None:
            return

        def said(intent: str) -> None:
            self.notify(f"Now working on: {intent}")
            self.refresh_activity()

        def typed(text: str | None) -> None:
            if text is not None:
                self.call("say the task", lambda: saves.begin(text), said)

        self.app.push_screen(
            TextPrompt(
                "Now working on",
                placeholder="fix the crash on an empty config",
                context="Your saves from now on are recorded under it; grouping and commit titles follow it.",
            ),
            typed,
        )

    def action_finish_intent(self) -> None:
        saves = self.segmint.saves
        if saves is None:
            return

        def finished(intent: str | None) -> None:
            self.notify(f"Finished: {intent}" if intent else "No task was said: nothing to finish")
            self.refresh_activity()

        self.call("finish the task", saves.finish, finished)

    def on_commit_editor_save(self, event) -> None:
        # Refused (an empty title), the editor stays open with the error shown.
        def done(plan) -> None:
            if self.editor.plan is not None and self.editor.plan.id == plan.id:  # not another commit's since
                self.editor.mark_saved(plan.title, plan.description, sent=(event.title, event.description))
            self.notify(f"Saved the message of {plan.id}")
            if event.leave:
                self.commits.focus()

        self.call(
            "save the message",
            lambda: self.session.update_commit(event.commit_id, title=event.title, description=event.description),
            done,
        )

    def action_save_message(self) -> None:
        self.editor.action_save()

    # -- pull request ---------------------------------------------------------------

    def action_generate_pr(self) -> None:
        if self.session.pr is None or not (self.pr_editor.dirty or self.session.pr.edited):
            self._generate_pr()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._generate_pr()

        self.app.push_screen(
            Confirm("Draft the pull request again?", "Your edits to its title and description are replaced."), answered
        )

    def _generate_pr(self) -> None:
        def done(draft) -> None:
            self.pr_editor.load(draft, self.session.plans, replace=True)
            self.focus_pane("pr")
            self.notify(f"Drafted “{draft.title}”")

        self.call("draft the pull request", lambda: self.session.generate_pr(replace=True), done)

    def on_pr_editor_save(self, event) -> None:
        def done(draft) -> None:
            self.pr_editor.mark_saved(draft.title, draft.description, sent=(event.title, event.description))
            self.notify("Saved the pull-request draft")
            if event.leave:
                self.focus_pane(self._last_pane)

        self.call(
            "save the pull request",
            lambda: self.session.update_pr(title=event.title, description=event.description),
            done,
        )

    def action_save_pr(self) -> None:
        self.pr_editor.action_save()

    def action_copy_pr(self) -> None:
        self.pr_editor.action_copy()

    # -- comments for the agent -------------------------------------------------------

    def action_comment(self) -> None:
        where = self._comment_target()
        if where is None:
            self.notify("Highlight a file, hunk or diff line to comment on", severity="warning")
            return
        path, line, hunk_id = where
        place = shown(path) + (f" line {line}" if line else "") + (f" ({hunk_id})" if hunk_id else "")

        def typed(comment: str | None) -> None:
            if comment is not None:
                send = lambda: self.session.add_review_message(path, comment, line=line, hunk_id=hunk_id)  # noqa: E731
                self.call("send the comment", send, lambda _: self.notify(f"Comment on {place} queued for the agent"))

        self.app.push_screen(
            TextPrompt("Comment for the agent", context=place, placeholder="what should the agent change or know?"),
            typed,
        )

    def _comment_target(self) -> tuple[str, int | None, str | None] | None:
        if isinstance(self.app.focused, DiffView):
            target = self.diff.target
            if target is None or not self.diff.document.live:
                return None
            return target.change.file_path, target.line, target.hunk.id if target.hunk else None
        ref = self.tree.cursor_ref
        if ref is None or ref.kind == REASON or ref.change_id is None:
            return None
        row = self.tree.row(ref.group_id)
        f = row.file(ref.change_id) if row else None
        if f is None:
            return None
        line = None
        if ref.hunk_id:
            hunk = next((h for h in f.hunks if h.id == ref.hunk_id), None)
            line = hunk.new_start if hunk is not None else None
        return f.change.file_path, line, ref.hunk_id
