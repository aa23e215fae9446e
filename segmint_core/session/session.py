"""The session: one shared state per repository, edited only through its methods.

The TUI and the MCP server are two faces of one ``Session``. Every edit is a
method here; each bumps ``revision``, is written to ``.git/segmint/`` and is
announced to subscribers (``subscribe``). The lock (``shared.SharedLock``)
makes methods safe to call from the MCP server's worker threads and the TUI at
once, and from other processes on the same repository: each edit starts from
what the last one, wherever it ran, saved.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from segmint_core.changes import capture
from segmint_core.changes.models import Change, Hunk
from segmint_core.config import Settings, load_settings
from segmint_core.errors import RefusedError, SegmintError, StaleReferenceError, UnknownIdError
from segmint_core.git import Git
from segmint_core.messages import MessageQueue, ReviewFeed, ReviewMessage
from segmint_core.pr import draft_pr
from segmint_core.session import events, presence
from segmint_core.session.applying import apply_all, apply_plan, undo_last
from segmint_core.session.events import EventBus, SessionEvent
from segmint_core.session.planner import build_plans, files_of_plans, summarize
from segmint_core.session.presence import Presence
from segmint_core.session.models import (
    AGENT, APPLIED, APPROVED, AWAITING_APPROVAL, FAILED, PERSON, PROPOSED, Activity, CommitPlan, Group,
    PullRequestDraft, id_number,
)
from segmint_core.session.remap import remap
from segmint_core.session.state import (
    STATE_FILE, RefreshReport, SavedState, carry_over, read_saved, read_units, unit_signatures, write_saved,
    write_units,
)
from segmint_core.session.shared import SharedLock, file_stamp
from segmint_core.session.store import session_dir
from segmint_core.session.units import Unit, Units
from segmint_core.wording import counted

Progress = Callable[[int, int, str], None]


class Session:
    def __init__(self, git: Git, *, settings: Settings | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.git = git
        self.settings = settings or load_settings()
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self.events = EventBus()
        self.folder = session_dir(git.git_dir)
        self._lock = SharedLock(self.folder / "session.lock", self._adopt_saved)
        self._disk_stamp: tuple[int, int, int] | None = None
        self.own_presence = Presence()   # this process's; ``presence()`` adds other processes'
        self.last_refresh = RefreshReport(changed=False)
        self._state = SavedState()
        self.units = Units(capture(git), {})
        self._review: ReviewFeed | None = None
        self._units_just_read = True  # the first adoption need not capture again
        with self._lock:
            if self._disk_stamp is None:  # nothing saved yet: a new session
                self._state = SavedState(fingerprint=self.units.changeset.fingerprint, head=self.units.changeset.head)
                write_units(self.folder, self.units)
        self._units_just_read = False

    @classmethod
    def open(cls, repo: str | None = None, **options: Any) -> "Session":
        return cls(Git.discover(repo), **options)

    # -- reading ------------------------------------------------------------------

    @property
    def revision(self) -> int:
        return self._state.revision

    @property
    def changes_revision(self) -> int:
        return self._state.changes_revision

    @property
    def changes(self) -> list[Change]:
        return self.units.changes

    @property
    def groups(self) -> list[Group]:
        return self._state.groups

    @property
    def plans(self) -> list[CommitPlan]:
        return self._state.plans

    @property
    def pr(self) -> PullRequestDraft | None:
        return self._state.pr

    @property
    def activity(self) -> list[Activity]:
        return self._state.activity

    @property
    def applied(self):
        return self._state.applied

    def subscribe(self, listener: Callable[[SessionEvent], None]) -> Callable[[], None]:
        return self.events.subscribe(listener)

    def group(self, group_id: str) -> Group:
        for group in self.groups:
            if group.id == group_id:
                return group
        raise UnknownIdError("group", [group_id])

    def plan(self, commit_id: str) -> CommitPlan:
        for plan in self.plans:
            if plan.id == commit_id:
                return plan
        raise UnknownIdError("commit", [commit_id])

    def parts(self, hunk_ids: list[str], change_ids: list[str] = ()) -> list[tuple[Change, list[Hunk]]]:
        """The plan's or group's hunks, by change, in file order."""
        wanted = set(hunk_ids)
        out: list[tuple[Change, list[Hunk]]] = []
        for change in self.units.changes:
            hunks = [h for h in change.hunks if h.id in wanted]
            if hunks or change.id in change_ids:
                out.append((change, hunks))
        return out

    def units_of(self, hunk_ids: list[str]) -> list[Unit]:
        return self.units.resolve(hunk_ids)

    def check_revision(self, revision: int | None) -> None:
        """Refuse ids read at another revision of the changes (after a refresh)."""
        if revision is not None and revision != self.changes_revision:
            raise StaleReferenceError(
                f"IDs from revision {revision} are stale: the changes were re-read at revision "
                f"{self.changes_revision}; list them again"
            )

    def snapshot(self) -> dict[str, Any]:
        """The live state as plain data (the ``segmint://session`` resource)."""
        with self._lock:
            present = self.presence()
            return {
                "revision": self.revision,
                "changes_revision": self.changes_revision,
                "head": self.units.changeset.head,
                "changes": [_change_summary(c) for c in self.changes],
                "groups": [g.to_dict() for g in self.groups],
                "plans": [p.to_dict() for p in self.plans],
                "approvals_pending": [p.id for p in self.plans if p.status == AWAITING_APPROVAL],
                "pr": self.pr.to_dict() if self.pr else None,
                "activity": [a.to_dict() for a in self.activity[-20:]],
                "person_present": present.person_present,
                "agent_can_commit": present.agent_can_commit,
                "last_refresh": self.last_refresh.to_dict(),
            }

    # -- changes ------------------------------------------------------------------

    def refresh(self, *, actor: str = PERSON, committed: frozenset[str] = frozenset()) -> RefreshReport:
        """Re-read the repository; keep groups and plans for hunks still there.

        ``committed``: units just committed. They are gone from the working
        tree, so they must not claim a remaining hunk with the same lines.
        """
        with self._lock:
            fresh = capture(self.git)
            current = self.units.changeset
            if fresh.fingerprint == current.fingerprint and fresh.head == current.head:
                self.last_refresh = RefreshReport(False, revision=self.revision)
                return self.last_refresh
            old = [u for u in unit_signatures(self.units) if u.id not in committed]
            report = self._remap_to(fresh, old, _paths(self.units))
            self._log(actor, "refreshed", report.sentence())
        self._announce(events.CHANGES, actor, report.to_dict())
        return report

    def _remap_to(self, fresh, old_units, old_paths: dict[str, str]) -> RefreshReport:
        mapping = remap(old_units, fresh)
        self.units = Units(fresh, mapping.splits)
        self._state.revision += 1
        self._state.changes_revision = self._state.revision
        touched = {g.id for g in self.groups if any(h not in mapping.ids for h in g.hunk_ids)}
        rehomed = carry_over(self._state, mapping, self.units, old_paths, self.revision)
        self._refresh_summaries(touched)
        appeared = [uid for uid in mapping.appeared if uid not in rehomed] + [
            cid for cid in self.units.hunkless_change_ids()
            if not any(cid in g.change_ids for g in self.groups)
        ]
        if appeared and self.groups:
            self._new_group(appeared, "New changes since the last grouping", ["appeared after a refresh"])
        self._state.splits = dict(self.units.splits)
        self._state.fingerprint, self._state.head = fresh.fingerprint, fresh.head
        self.last_refresh = RefreshReport(True, mapping.vanished, list(mapping.appeared), self.revision)
        write_units(self.folder, self.units)
        self._save()
        return self.last_refresh

    # -- groups -------------------------------------------------------------------

    def regroup(self, *, change_ids: list[str] | None = None, provider: str = "local", algorithm: str = "graph",
                actor: str = PERSON, progress: Progress | None = None) -> list[Group]:
        """Group the changes (all, or ``change_ids``) from scratch."""
        from segmint_core.grouping import group_changes

        if change_ids is not None and not change_ids:
            raise SegmintError("Give at least one change id, or none at all to group every change")
        with self._lock:
            if change_ids is not None:
                self.units.resolve_changes(change_ids)
            raw = self.units.changeset
            grouping = group_changes(raw, change_ids=change_ids, provider=provider, algorithm=algorithm,
                                     settings=self.settings, progress=progress, root=self.git.root)
            kept = [g for g in self.groups if change_ids is not None and not set(g.change_ids) & set(change_ids)]
            splits = dict(self._state.splits) if change_ids is not None else {}
            splits.update(grouping.splits)
            self.units = Units(raw, splits)
            self._state.splits = dict(self.units.splits)
            self._state.revision += 1
            fresh_groups = [
                Group(g.id, list(g.change_ids), list(g.hunk_ids), g.summary, list(g.reasons), self.revision)
                for g in grouping.groups
            ]
            self._state.groups = _renumber(kept, fresh_groups)
            self._state.pr = None
            self._drop_open_plans()
            write_units(self.folder, self.units)
            self._log(actor, "grouped", f"{actor} grouped the changes into {len(self.groups)} groups")
            self._save()
        self._announce(events.GROUPS, actor, {"groups": [g.id for g in self.groups]})
        return self.groups

    def ensure_groups(self, *, actor: str = PERSON) -> list[Group]:
        if not self.groups and self.units.changes:
            return self.regroup(actor=actor)
        return self.groups

    def move_hunks(self, hunk_ids: list[str], *, to_group_id: str | None = None, new_group: bool = False,
                   actor: str = PERSON) -> Group:
        """Move hunks (or whole hunkless changes, by change id) to a group or a new one."""
        if (to_group_id is None) == (not new_group):
            raise SegmintError("Give either to_group_id or new_group=true (not both)")
        with self._lock:
            hunks, changes = self._split_ids(hunk_ids)
            target = self.group(to_group_id) if to_group_id else None
            for group in self.groups:
                group.hunk_ids = [h for h in group.hunk_ids if h not in hunks]
                group.change_ids = [c for c in group.change_ids if c not in changes]
            if target is None:
                target = self._new_group([], "", [])
            target.hunk_ids = self.units.in_order(target.hunk_ids + hunks)
            target.change_ids = sorted(set(target.change_ids) | set(changes), key=id_number)
            self._tidy_groups()
            self._state.revision += 1
            self._refresh_summaries()
            text = f"{actor} moved {', '.join(hunk_ids)} to {target.id}"
            self._log(actor, "moved", text)
            self._save()
        self._announce(events.GROUPS, actor, {"moved": hunk_ids, "to": target.id})
        return target

    def merge_groups(self, group_ids: list[str], *, actor: str = PERSON) -> Group:
        group_ids = list(dict.fromkeys(group_ids))
        if len(group_ids) < 2:
            raise SegmintError("Give at least two different groups to merge")
        with self._lock:
            groups = [self.group(gid) for gid in group_ids]
            keep, rest = groups[0], groups[1:]
            for other in rest:
                keep.hunk_ids = self.units.in_order(keep.hunk_ids + other.hunk_ids)
                keep.change_ids = sorted(set(keep.change_ids) | set(other.change_ids), key=id_number)
            named = next((g for g in groups if g.edited), None)
            if named is not None:   # a name someone gave survives the merge
                keep.summary, keep.edited = named.summary, True
            merged = {g.id for g in rest}
            self._state.groups = [g for g in self.groups if g.id not in merged]
            self._state.revision += 1
            self._refresh_summaries()
            self._log(actor, "merged", f"{actor} merged {', '.join(group_ids)} into {keep.id}")
            self._save()
        self._announce(events.GROUPS, actor, {"merged": group_ids, "into": keep.id})
        return keep

    def update_group(self, group_id: str, summary: str, *, actor: str = PERSON) -> Group:
        summary = " ".join(summary.split())
        if not summary:
            raise SegmintError("A group summary cannot be empty")
        with self._lock:
            group = self.group(group_id)
            group.summary = summary
            group.edited = True
            self._state.revision += 1
            group.revision = self.revision
            self._log(actor, "renamed", f"{actor} renamed {group_id} to “{summary}”")
            self._save()
        self._announce(events.GROUPS, actor, {"renamed": group_id})
        return group

    # -- plans ----------------------------------------------------------------------

    def propose_commits(self, group_ids: list[str] | None = None, *, actor: str = PERSON) -> list[CommitPlan]:
        """One plan per group (all, or ``group_ids``), in dependency order."""
        with self._lock:
            self.ensure_groups(actor=actor)
            groups = [self.group(g) for g in group_ids] if group_ids is not None else list(self.groups)
            applied = [p for p in self.plans if p.status == APPLIED]
            kept = [p for p in self.plans if p.status != APPLIED and group_ids is not None
                    and not set(p.change_group_ids) & set(group_ids)]
            kept_ids = {p.id for p in kept}
            replaced = [p for p in self.plans if p.status != APPLIED and p.id not in kept_ids]
            start = 1 + max((id_number(p.id) for p in self.plans), default=0)   # a replaced id never names another commit
            fresh = build_plans(self, groups, start, replaced)
            self._state.revision += 1
            for plan in fresh:
                plan.revision = self.revision
            self._state.plans = applied + kept + fresh
            self._log(actor, "planned", f"{actor} proposed {counted(len(fresh), 'commit')}")
            self._save()
        self._announce(events.PLANS, actor, {"plans": [p.id for p in fresh]})
        return fresh

    def update_commit(self, commit_id: str, *, title: str | None = None, description: str | None = None,
                      actor: str = PERSON) -> CommitPlan:
        if title is None and description is None:
            raise SegmintError("Give a new title, a new description, or both")
        with self._lock:
            plan = self.plan(commit_id)
            if plan.status == APPLIED:
                raise SegmintError(f"{commit_id} is already applied as {plan.sha[:7] if plan.sha else '?'}; undo it to edit")
            if title is not None:
                title = title.strip()
                if not title or "\n" in title:
                    raise SegmintError("A commit title must be one non-empty line")
                plan.title = title
            if description is not None:
                plan.description = description.strip("\n")
            plan.note = None
            plan.edited = True
            self._state.revision += 1
            plan.revision = self.revision
            self._log(actor, "edited", f"{actor} edited the message of {commit_id}")
            self._save()
        self._announce(events.PLANS, actor, {"edited": commit_id})
        return plan

    def reorder_commits(self, commit_ids: list[str], *, actor: str = PERSON) -> list[CommitPlan]:
        with self._lock:
            open_plans = [p for p in self.plans if p.status != APPLIED]
            by_id = {p.id: p for p in open_plans}
            unknown = [c for c in commit_ids if c not in by_id]
            if unknown:
                raise UnknownIdError("commit", unknown)
            if sorted(commit_ids) != sorted(by_id) or len(set(commit_ids)) != len(commit_ids):
                raise SegmintError(
                    f"Give every open commit exactly once: {', '.join(p.id for p in open_plans)}"
                )
            applied = [p for p in self.plans if p.status == APPLIED]
            self._state.plans = applied + [by_id[c] for c in commit_ids]
            self._state.revision += 1
            self._log(actor, "reordered", f"{actor} reordered the commits: {', '.join(commit_ids)}")
            self._save()
        self._announce(events.PLANS, actor, {"order": commit_ids})
        return self.plans

    def approve(self, commit_ids: list[str], *, actor: str = PERSON) -> list[CommitPlan]:
        with self._lock:
            plans = [self.plan(c) for c in commit_ids]
            for plan in plans:
                if plan.status == APPLIED:
                    raise SegmintError(f"{plan.id} is already applied")
                plan.status = APPROVED
            self._state.revision += 1
            self._log(actor, "approved", f"{actor} approved {', '.join(commit_ids)}")
            self._save()
        self._announce(events.PLANS, actor, {"approved": commit_ids})
        return plans

    def apply_commit(self, commit_id: str, *, dry_run: bool = False, actor: str = PERSON):
        return apply_plan(self, commit_id, dry_run=dry_run, actor=actor)

    def apply_all(self, *, actor: str = PERSON, approved_only: bool = False):
        return apply_all(self, actor=actor, approved_only=approved_only)

    def undo(self, *, actor: str = PERSON):
        return undo_last(self, actor=actor)

    # -- pull request ---------------------------------------------------------------

    def generate_pr(self, commit_ids: list[str] | None = None, *, replace: bool = False,
                    actor: str = PERSON) -> PullRequestDraft:
        """Draft the pull request anew; a draft someone edited is replaced only with ``replace``."""
        if commit_ids is not None:
            commit_ids = list(dict.fromkeys(commit_ids))
            if not commit_ids:
                raise SegmintError("Give at least one commit id, or none at all to describe every commit")
        with self._lock:
            if self.pr is not None and self.pr.edited and not replace:
                raise RefusedError("The pull-request draft was edited since it was drafted; "
                                   "draft it again with replace to discard those edits")
            if not self.plans and commit_ids is None and self.changes:
                self.propose_commits(actor=actor)
            plans = [self.plan(c) for c in commit_ids] if commit_ids is not None else list(self.plans)
            draft = draft_pr(plans, files_of_plans(self, plans), self.settings)
            self._state.pr = draft
            self._state.revision += 1
            self._log(actor, "drafted", f"{actor} drafted the pull request “{draft.title}”")
            self._save()
        self._announce(events.PR, actor, {"title": draft.title})
        return draft

    def update_pr(self, *, title: str | None = None, description: str | None = None,
                  actor: str = PERSON) -> PullRequestDraft:
        with self._lock:
            if self.pr is None:
                raise SegmintError("There is no pull-request draft yet: generate one first")
            if title is not None:
                if not title.strip() or "\n" in title.strip():
                    raise SegmintError("A pull-request title must be one non-empty line")
                self.pr.title = title.strip()
            if description is not None:
                self.pr.description = description
            self.pr.edited = True
            self._state.revision += 1
            self._log(actor, "edited", f"{actor} edited the pull-request draft")
            self._save()
        self._announce(events.PR, actor, {"edited": True})
        return self.pr

    def set_presence(self, *, person_present: bool, agent_can_commit: bool = False) -> None:
        """Mark a person at this process's TUI (or gone); other processes on the repository see it too."""
        with self._lock:
            self.own_presence = Presence(person_present, agent_can_commit and person_present)
            presence.mark(self.folder, self.own_presence)

    def saved_elsewhere(self) -> bool:
        """Whether the saved state may be another process's (a quick look, without the lock)."""
        return file_stamp(self.folder / STATE_FILE) != self._disk_stamp

    def catch_up(self) -> None:
        """Take up what another process saved since this one last read or wrote
        (announced as a reload); nothing when it saved nothing."""
        with self._lock:
            pass   # entering the lock adopts the saved state

    def presence(self) -> Presence:
        """Whether a person is at a TUI on this repository (here or in another process),
        and whether agents may then commit without their approval."""
        return presence.combined(self.own_presence, self.folder)

    @property
    def person_present(self) -> bool:
        return self.presence().person_present

    @property
    def agent_can_commit(self) -> bool:
        return self.presence().agent_can_commit

    # -- review messages (segmint_core.messages) --------------------------------------

    @property
    def review(self) -> ReviewFeed:
        """The person's comments for the agent: a queue in this folder that other
        processes (``segmint send``) append to as well."""
        with self._lock:
            if self._review is None:
                queue = MessageQueue(self.folder, self.git.root)
                self._review = ReviewFeed(queue, lambda actor, detail: self._announce(events.MESSAGES, actor, detail))
            return self._review

    @property
    def messages(self) -> list[ReviewMessage]:
        return self.review.peek()

    def add_review_message(self, file: str, comment: str, *, line: int | None = None, hunk_id: str | None = None,
                           actor: str = PERSON) -> ReviewMessage | None:
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

    # -- internals ------------------------------------------------------------------

    def _adopt_saved(self) -> None:
        """Take up the state another process saved since we last read or wrote it
        (at start-up, what the last run left)."""
        stamp = file_stamp(self.folder / STATE_FILE)
        if stamp is None or stamp == self._disk_stamp:
            return
        self._disk_stamp = stamp
        saved = read_saved(self.folder)
        if saved is None:
            return
        first = self._state.revision == 0 and not self._state.groups
        self._state = saved
        current = self.units.changeset
        if saved.fingerprint != current.fingerprint or saved.head != current.head:
            fresh = current if self._units_just_read else capture(self.git)
            if saved.fingerprint != fresh.fingerprint or saved.head != fresh.head:
                old_units, old_paths = read_units(self.folder)
                self._remap_to(fresh, old_units, old_paths)
                return
            current = fresh
        self.units = Units(current, saved.splits)
        if not first:
            self._announce(events.CHANGES, "segmint", {"reloaded": True})

    def _save(self) -> None:
        write_saved(self.folder, self._state)
        self._disk_stamp = file_stamp(self.folder / STATE_FILE)

    def _announce(self, kind: str, actor: str, detail: dict[str, Any]) -> None:
        self.events.emit(SessionEvent(kind, self.revision, actor, detail))

    def _log(self, actor: str, action: str, text: str) -> None:
        stamp = self._clock().astimezone(timezone.utc).isoformat(timespec="seconds")
        self._state.activity.append(Activity(stamp, actor, action, text, self.revision))

    def _split_ids(self, ids: list[str]) -> tuple[list[str], list[str]]:
        """Hunk ids and hunkless change ids; a change with hunks stands for all of them."""
        unknown = [i for i in ids if i not in self.units.by_id and i not in self.units.change_by_id]
        if unknown:
            raise UnknownIdError("hunk", unknown)
        if not ids:
            raise SegmintError("Give at least one hunk id")
        hunks: list[str] = []
        changes: list[str] = []
        for i in ids:
            change = self.units.change_by_id.get(i)
            if change is None:
                hunks.append(i)
            elif change.hunks:
                hunks.extend(h.id for h in change.hunks)
            else:
                changes.append(i)
        return list(dict.fromkeys(hunks)), list(dict.fromkeys(changes))

    def _new_group(self, ids: list[str], summary: str, reasons: list[str]) -> Group:
        number = 1 + max((id_number(g.id) for g in self.groups), default=0)
        hunks = [i for i in ids if i in self.units.by_id]
        changes = {self.units.change_of(h).id for h in hunks} | {i for i in ids if i in self.units.change_by_id}
        group = Group(f"group-{number}", sorted(changes, key=id_number), hunks, summary, reasons, self.revision)
        self._state.groups.append(group)
        return group

    def _tidy_groups(self) -> None:
        """Recompute each group's change ids from its hunks; drop empty groups."""
        for group in self.groups:
            hunkless = {c for c in group.change_ids if not self.units.change_by_id[c].hunks}
            group.change_ids = sorted({self.units.change_of(h).id for h in group.hunk_ids} | hunkless,
                                      key=id_number)
        self._state.groups = [g for g in self.groups if g.hunk_ids or g.change_ids]

    def _refresh_summaries(self, only: set[str] | None = None) -> None:
        """Rewrite the summaries not edited by hand (of the groups in ``only``, if given)."""
        for group in self.groups:
            if only is not None and group.id not in only:
                continue
            if not group.edited:
                group.summary, group.reasons = summarize(self, group)
            group.revision = self.revision

    def _drop_open_plans(self) -> None:
        self._state.plans = [p for p in self.plans if p.status == APPLIED]


def _renumber(kept: list[Group], fresh: list[Group]) -> list[Group]:
    if not kept:
        return fresh
    start = 1 + max(id_number(g.id) for g in kept)
    for n, group in enumerate(fresh):
        group.id = f"group-{start + n}"
    return kept + fresh


def _paths(units: Units) -> dict[str, str]:
    return {c.id: c.file_path for c in units.changes}


def _change_summary(change: Change) -> dict[str, Any]:
    return {
        "id": change.id, "file_path": change.file_path, "old_path": change.old_path, "status": change.status,
        "binary": change.binary, "added": change.added, "removed": change.removed,
        "hunk_ids": [h.id for h in change.hunks],
    }


__all__ = ["AGENT", "APPLIED", "APPROVED", "AWAITING_APPROVAL", "FAILED", "PERSON", "PROPOSED", "Session"]
