"""The session: one shared state per repository, edited only through its methods.

The TUI and the MCP server are two faces of one ``Session``. Every edit is a
method; each bumps ``revision``, is written to ``.git/segmint/`` and is
announced to subscribers (``subscribe``). The lock (``shared.SharedLock``)
makes methods safe to call from the MCP server's worker threads and the TUI at
once, and from other processes on the same repository: each edit starts from
what the last one, wherever it ran, saved.

The session is composed of parts that only point down to ``core``:

    session ─┬─ editing    groups: regroup, move, merge, rename
             ├─ moves      single lines moved; the last move undone
             ├─ plans      commit plans: propose, edit, reorder, approve
             ├─ drafting   the pull-request draft
             ├─ applying   commits
             ├─ operations the operation log; undo of a whole operation
             └─ core       state, lock, units, refresh, save, announce

Each part is a module of functions taking the core; they are bound here as
methods, so their signatures and docs live in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from segmint_core.changes.models import Change, wire_text
from segmint_core.review import MessageQueue, ReviewFeed, ReviewMessage
from segmint_core.session import (
    absorbing,
    applying,
    checks,
    confidence,
    drafting,
    editing,
    events,
    moves,
    operations,
    plans,
    refining,
    splitting,
)
from segmint_core.session.core import SessionCore
from segmint_core.session.models import (
    AGENT,
    APPLIED,
    APPROVED,
    AWAITING_APPROVAL,
    FAILED,
    PERSON,
    PROPOSED,
)
from segmint_core.errors import UnknownIdError


class Session(SessionCore):
    _review: ReviewFeed | None = None

    # -- groups (segmint_core.session.editing) ----------------------------------------
    regroup = editing.regroup
    ensure_groups = editing.ensure_groups
    move_hunks = editing.move_hunks
    merge_groups = editing.merge_groups
    update_group = editing.update_group
    refine_groups = refining.refine_groups
    refine_requests = refining.refine_requests
    move_lines = moves.move_lines
    undo_move = moves.undo_move
    confidence = confidence.confidence

    # -- plans (segmint_core.session.plans) ---------------------------------------------
    propose_commits = plans.propose_commits
    update_commit = plans.update_commit
    reorder_commits = plans.reorder_commits
    approve = plans.approve
    unplanned = plans.unplanned

    # -- commits (segmint_core.session.applying) -----------------------------------------
    apply_commit = applying.apply_commit
    apply_all = applying.apply_all
    undo = operations.undo
    absorb = absorbing.absorb
    absorb_preview = absorbing.absorb_preview
    start_split = splitting.start_split
    apply_split = splitting.apply_split
    request_split = splitting.request_split
    abort_split = splitting.abort_split
    split_session = splitting.split_session
    operations = operations.operations

    # -- commits checked on their own (segmint_core.session.checks) -----------------------
    check_commits = checks.check_commits
    propose_fixes = checks.propose_fixes
    fix_commits = checks.fix_commits

    # -- pull request (segmint_core.session.drafting) -------------------------------------
    generate_pr = drafting.generate_pr
    update_pr = drafting.update_pr

    def snapshot(self) -> dict[str, Any]:
        """The live state as plain data (the ``segmint://session`` resource)."""
        with self.lock:
            present = self.presence()
            return {
                "revision": self.revision,
                "changes_revision": self.changes_revision,
                "head": self.units.changeset.head,
                "changes": [_change_summary(c) for c in self.changes],
                "parts": moves.describe_parts(self),
                "groups": [g.to_dict() for g in self.groups],
                "confidence": self.confidence().to_dict(),
                "plans": [p.to_dict() for p in self.plans],
                "approvals_pending": [p.id for p in self.plans if p.status == AWAITING_APPROVAL],
                "pr": self.pr.to_dict() if self.pr else None,
                "activity": [a.to_dict() for a in self.activity[-20:]],
                "operations": [o.to_dict() for o in self.state.operations[-10:]],
                "person_present": present.person_present,
                "agent_can_commit": present.agent_can_commit,
                "last_refresh": self.last_refresh.to_dict(),
                "message_style": self.message_style().sentence(),
            }

    # -- review messages (segmint_core.review) --------------------------------------

    @property
    def review(self) -> ReviewFeed:
        """The person's comments for the agent: a queue in this folder that other
        processes (``segmint send``) append to as well."""
        with self.lock:
            if self._review is None:
                queue = MessageQueue(self.folder, self.git.root)
                self._review = ReviewFeed(queue, lambda actor, detail: self.announce(events.MESSAGES, actor, detail))
            return self._review

    @property
    def messages(self) -> list[ReviewMessage]:
        return self.review.peek()

    def add_review_message(
        self, file: str, comment: str, *, line: int | None = None, hunk_id: str | None = None, actor: str = PERSON
    ) -> ReviewMessage | None:
        """Queue a comment for the agent; None if the same comment is already queued."""
        if hunk_id is not None and hunk_id not in self.units.by_id:
            raise UnknownIdError("hunk", [hunk_id])
        return self.review.add(file, comment, line=line, hunk_id=hunk_id, actor=actor)

    def take_review_messages(self, *, actor: str = AGENT) -> list[ReviewMessage]:
        """Every pending comment, oldest first; the queue is emptied (clear-on-read)."""
        return self.review.take(actor)

    def peek_review_messages(self) -> list[ReviewMessage]:
        return self.review.peek()

    def watch_review_messages(self) -> Callable[[], None]:
        """Announce comments other processes queue (within a second) until the returned function is called."""
        return self.review.watch()


def _change_summary(change: Change) -> dict[str, Any]:
    return {
        "id": change.id,
        "file_path": wire_text(change.file_path),
        "old_path": wire_text(change.old_path) if change.old_path is not None else None,
        "status": change.status,
        "binary": change.binary,
        "added": change.added,
        "removed": change.removed,
        "hunk_ids": [h.id for h in change.hunks],
    }


__all__ = ["AGENT", "APPLIED", "APPROVED", "AWAITING_APPROVAL", "FAILED", "PERSON", "PROPOSED", "Session"]
