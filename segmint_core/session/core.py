"""The session's core: its state, its lock, its units, and how a re-read carries them.

Everything the session's parts share lives here: the saved state (groups,
plans, draft, activity), the units of the current changes, the lock that makes
an edit safe across threads and processes (``shared.SharedLock``), saving to
``.git/segmint/`` and announcing to subscribers. The parts (``editing``,
``plans``, ``drafting``, ``applying``) are functions of a ``SessionCore``;
``session.Session`` binds them into one object. Nothing here imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from segmint_core.changes import ChangeSet, capture
from segmint_core.changes.generated import generated_paths, too_large
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.unchanged import unchanged_paths
from segmint_core.config import Settings, load_settings
from segmint_core.errors import StaleReferenceError, UnknownIdError
from segmint_core.git import Git
from segmint_core.apply import journal
from segmint_core.rewrite import split
from segmint_core.session import calls, events, ledger, presence
from segmint_core.session.events import EventBus, SessionEvent
from segmint_core.session.groups import add_group, refresh_summaries
from segmint_core.session.models import APPLIED, PERSON, SPLIT_OP, Activity, Actor, CommitPlan, Group, PullRequestDraft
from segmint_core.session.presence import Presence
from segmint_core.session.recapture import recapture
from segmint_core.session.remap import remap
from segmint_core.session.shared import OneAtATime, SharedLock, file_stamp
from segmint_core.session.state import (
    STATE_FILE,
    RefreshReport,
    SavedState,
    carry_over,
    read_saved,
    read_units,
    unit_signatures,
    write_saved,
    write_units,
)
from segmint_core.session.store import session_dir
from segmint_core.session.units import Unit, Units

if TYPE_CHECKING:
    from segmint_core.planning.style import HouseStyle


BUSY = "Another apply is running on this repository: nothing was done; run this again when it has finished"


class SessionCore:
    _style: HouseStyle | None = None

    def __init__(
        self, git: Git, *, settings: Settings | None = None, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.git = git
        self.settings = settings or load_settings()
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self.events = EventBus()
        self.folder = session_dir(git.git_dir)
        self.lock = SharedLock(self.folder / "session.lock", self._on_lock)
        # Commits and undos, one at a time across processes: a second is refused while one runs.
        self.committing = OneAtATime(self.folder / "apply.lock", BUSY)
        # sentences: interrupted commits or undos this process finished, a saved session set aside
        self.recovered: list[str] = []
        self._disk_stamp: tuple[int, int, int] | None = None
        self.own_presence = Presence()  # this process's; ``presence()`` adds other processes'
        self.last_refresh = RefreshReport(changed=False)
        # Derived, per process: the confidence of one revision, the evidence of one change set
        # (session/confidence.py).
        self.confidence_cache: Any = None
        self.evidence_cache: Any = None
        self.state = SavedState()
        # With an apply or undo to finish, the changes are read once git is put right (``_on_lock``).
        self._read_at = self._tree_stamp()
        self._units = None if journal.pending(git.git_dir) else Units(self.capture_changes(), {})
        self._units_just_read = True  # the first adoption need not capture again
        self._reread = False  # the units must be read again: interrupted work was finished since
        self.batch_op: ledger.OpStart | None = None  # the operation an ``apply --all`` under way adds to
        with self.lock:
            if self._disk_stamp is None:  # nothing saved yet: a new session
                self.state = SavedState(fingerprint=self.units.changeset.fingerprint, head=self.units.changeset.head)
                write_units(self.folder, self.units, self.state)
            self._tell_interrupted_split()

    @classmethod
    def open(cls, repo: str | None = None, **options: Any):
        return cls(Git.discover(repo), **options)

    # -- reading ------------------------------------------------------------------

    @property
    def units(self) -> Units:
        """The units of the changes as last read. Unread only inside the first entry of the lock,
        when an interrupted apply must be finished before the tree is read (``_on_lock``)."""
        assert self._units is not None, "the changes are read on the first entry of the session's lock"
        return self._units

    @units.setter
    def units(self, units: Units) -> None:
        self._units = units

    @property
    def units_read(self) -> bool:
        return self._units is not None

    def message_style(self) -> HouseStyle:
        """The house style commit messages follow, learned from HEAD's history (cached per HEAD)."""
        from segmint_core.planning.style import house_style  # loads the message writer's facts

        head = self.units.changeset.head
        if self._style is None or self._style.head != head:
            self._style = house_style(self.git, self.folder, head)
        return self._style

    @property
    def revision(self) -> int:
        return self.state.revision

    @property
    def changes_revision(self) -> int:
        return self.state.changes_revision

    @property
    def changes(self) -> list[Change]:
        return self.units.changes

    @property
    def groups(self) -> list[Group]:
        return self.state.groups

    @property
    def plans(self) -> list[CommitPlan]:
        return self.state.plans

    @property
    def pr(self) -> PullRequestDraft | None:
        return self.state.pr

    @property
    def activity(self) -> list[Activity]:
        return self.state.activity

    @property
    def applied(self):
        return self.state.applied

    def subscribe(self, listener: Callable[[SessionEvent], None]) -> Callable[[], None]:
        return self.events.subscribe(listener)

    def group(self, group_id: str) -> Group:
        for group in self.groups:
            if group.id == group_id:
                return group
        raise UnknownIdError("group", [group_id], [g.id for g in self.groups])

    def plan(self, commit_id: str) -> CommitPlan:
        for plan in self.plans:
            if plan.id == commit_id:
                return plan
        raise UnknownIdError("commit", [commit_id], [p.id for p in self.plans])

    def parts(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> list[tuple[Change, list[Hunk]]]:
        """The plan's or group's hunks, by change, in file order."""
        return self.units.parts(hunk_ids, change_ids)

    def units_of(self, hunk_ids: list[str]) -> list[Unit]:
        return self.units.resolve(hunk_ids)

    def check_revision(self, revision: int | None) -> None:
        """Refuse ids read at another revision of the changes (after a refresh)."""
        if revision is not None and revision > self.changes_revision:
            raise StaleReferenceError(
                f"Revision {revision} is not one the changes have had (they are at {self.changes_revision}): "
                "pass changes_revision from get_session or list_changes, not the session's revision"
            )
        if revision is not None and revision != self.changes_revision:
            raise StaleReferenceError(
                f"IDs from revision {revision} are stale: the changes were re-read at revision "
                f"{self.changes_revision}; list them again"
            )

    def capture_changes(self) -> ChangeSet:
        """The repository's changes now, with the generated files among them (kept whole) and those
        with no net change (left as they are in the index) marked."""
        return self._marked(capture(self.git))

    def _recaptured(self, paths: set[str]) -> ChangeSet:
        before = self.units.changeset
        fresh = recapture(self.git, before, paths)
        known = before.generated - set(paths)
        return self._marked(fresh, known)

    def _marked(self, changes: ChangeSet, known: frozenset[str] = frozenset()) -> ChangeSet:
        with_hunks = [c.file_path for c in changes.changes if c.hunks and c.file_path not in known]
        found = generated_paths(self.git, with_hunks) if with_hunks else set()
        found |= too_large([c for c in changes.changes if c.file_path not in known])
        changes.generated = frozenset(found) | {c.file_path for c in changes.changes if c.file_path in known}
        changes.unchanged = frozenset(unchanged_paths(self.git, changes.changes, changes.head))
        return changes

    def _confirmed(self, current: ChangeSet, fresh: ChangeSet) -> bool:
        """Whether a full look (``fresh``) finds the changes as a partial re-read after a commit
        left them (``current``, fingerprint unknown): then only the fingerprint is taken up."""
        if current.fingerprint is not None or fresh.head != current.head:
            return False
        units = Units(fresh, self.units.splits)
        if unit_signatures(units) != unit_signatures(self.units) or _paths(units) != _paths(self.units):
            return False
        self.units = units
        self.state.fingerprint = fresh.fingerprint
        self.save()
        return True

    # -- who is here -----------------------------------------------------------------

    def set_presence(self, *, person_present: bool, agent_can_commit: bool = False) -> None:
        """Mark a person at this process's TUI (or gone); other processes on the repository see it too."""
        with self.lock:
            self.own_presence = Presence(person_present, agent_can_commit and person_present)
            presence.mark(self.folder, self.own_presence)

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

    # -- changes ------------------------------------------------------------------

    def refresh(
        self, *, actor: str = PERSON, committed: frozenset[str] = frozenset(), paths: set[str] | None = None
    ) -> RefreshReport:
        """Re-read the repository; keep groups and plans for hunks still there.

        ``committed``: units just committed. They are gone from the working
        tree, so they must not claim a remaining hunk with the same lines.
        ``paths``: the files a commit of Segmint's just touched, the only ones
        to read again (``recapture``).
        """
        with self.lock:
            current = self.units.changeset
            fresh = self.capture_changes() if paths is None else self._recaptured(paths)
            if (
                fresh.fingerprint == current.fingerprint
                and fresh.head == current.head
                or self._confirmed(current, fresh)
            ):
                self.last_refresh = RefreshReport(False, revision=self.revision)
                return self.last_refresh
            old = [u for u in unit_signatures(self.units) if u.id not in committed]
            report = self._remap_to(fresh, old, _paths(self.units))
            self.log(actor, "refreshed", report.sentence())
        self.announce(events.CHANGES, actor, report.to_dict())
        return report

    def _remap_to(self, fresh, old_units, old_paths: dict[str, str]) -> RefreshReport:
        mapping = remap(old_units, fresh)
        self.units = Units(fresh, mapping.splits)
        self.state.revision += 1
        self.state.changes_revision = self.state.revision
        touched = {g.id for g in self.groups if any(h not in mapping.ids for h in g.hunk_ids)}
        rehomed = carry_over(self.state, mapping, self.units, old_paths, self.revision)
        _mark_moved_head(self.state, fresh.head)
        refresh_summaries(self.state, self.units, self.git, touched)
        appeared = [uid for uid in mapping.appeared if uid not in rehomed] + [
            cid for cid in self.units.hunkless_change_ids() if not any(cid in g.change_ids for g in self.groups)
        ]
        if appeared and self.groups:
            add_group(
                self.state, self.units, appeared, "New changes since the last grouping", ["appeared after a refresh"]
            )
        self.state.splits = dict(self.units.splits)
        self.state.fingerprint, self.state.head = fresh.fingerprint, fresh.head
        self.last_refresh = RefreshReport(True, mapping.vanished, list(mapping.appeared), self.revision)
        write_units(self.folder, self.units, self.state)
        self.save()
        return self.last_refresh

    # -- saving and announcing ------------------------------------------------------

    def begin_edit(self) -> None:
        """An edit is about to change the session (under the lock, its slow work done): refused with
        ``calls.Abandoned`` when this thread's caller gave up; the first edit of a call keeps the session
        as it found it, to be put back should a later edit of the call be abandoned (``calls``)."""
        call = calls.current()
        if call is None:
            return
        if call.gone():
            raise calls.Abandoned()
        if call.put_back is None:
            call.put_back = self._putting_back(SavedState.from_dict(self.state.to_dict()), dict(self.units.splits))

    def _putting_back(self, state: SavedState, splits: dict) -> Callable[[int], None]:
        changes_revision = self.changes_revision

        def put_back(after: int) -> None:
            with self.lock:
                if self.revision != after or self.changes_revision != changes_revision:
                    return  # edited since, or the tree was read again: what is there now stands
                state.revision = self.revision + 1
                self.state, self.units = state, Units(self.units.changeset, splits)
                write_units(self.folder, self.units, self.state)
                self.save()
            self.announce(events.CHANGES, "segmint", {"reloaded": True})

        return put_back

    def save(self) -> None:
        write_saved(self.folder, self.state)
        self._disk_stamp = file_stamp(self.folder / STATE_FILE)
        call = calls.current()
        if call is not None and call.put_back is not None:
            call.after = self.revision

    def announce(self, kind: str, actor: str, detail: dict[str, Any]) -> None:
        self.events.emit(SessionEvent(kind, self.revision, actor, detail))

    def record(self, actor: str, action: str, text: str) -> int:
        """An edit is done: bump the revision, log it, save; the new revision."""
        self.state.revision += 1
        self.log(actor, action, text)
        self.save()
        return self.revision

    def log(self, actor: str, action: str, text: str, state: SavedState | None = None) -> None:
        state = state if state is not None else self.state
        stamp = self._clock().astimezone(timezone.utc).isoformat(timespec="seconds")
        state.activity.append(Activity(stamp, Actor(actor), action, text, state.revision))

    def saved_elsewhere(self) -> bool:
        """Whether the saved state may be another process's (a quick look, without the lock)."""
        return file_stamp(self.folder / STATE_FILE) != self._disk_stamp

    def catch_up(self) -> None:
        """Take up what another process saved since this one last read or wrote
        (announced as a reload); nothing when it saved nothing."""
        with self.lock:
            pass  # entering the lock adopts the saved state

    def _tree_stamp(self) -> tuple[str | None, tuple[int, int, int] | None]:
        """HEAD and the index file as they are: what a commit or an undo of another process changes."""
        return self.git.head(), file_stamp(Path(self.git.git_dir) / "index")

    def _on_lock(self) -> None:
        finished = self._finish_interrupted() if journal.pending(self.git.git_dir) else None
        if finished is not None:
            self.recovered.append(finished.sentence)
            # Units read before git was put right (HEAD moved, or the index was behind it) are stale.
            self._reread = self._reread or finished.moved
        if self._units is None or self._reread:  # read now, as a new process would, then carried over
            self.units = Units(self.capture_changes(), {})
            self._reread, self._units_just_read = False, True
        self._adopt_saved()
        self._units_just_read = False

    def _finish_interrupted(self) -> journal.Finished | None:
        """Finish or roll back a commit or an undo a killed process left half-done
        (``segmint_core.apply.journal``), and bring the saved state in line in one write:
        when it does not fit (a full disk), git is right and the journal stays for the next run."""

        def settle(done: journal.Finished) -> None:
            work = done.journal
            saved = read_saved(self.folder)
            if saved is None and done.moved and work.tip:  # a split from a session that saved nothing yet
                saved = SavedState()
            if saved is None:
                return
            if done.moved and work.kind == journal.APPLY:
                plan = next((p for p in saved.plans if p.id == work.label), None)
                if plan is None and work.tip and not any(a.sha == done.sha for a in saved.applied):
                    ledger.record_rewrite(
                        saved,
                        work.label,
                        done.sha or "",
                        work.head or "",
                        ledger.OpStart(work.operation or ledger.next_op_id(saved), kind=SPLIT_OP),
                    )
                    split.abort(self.git)  # the branch moved to the split's commits: its scratch tree is done
                if plan is not None and not any(a.sha == done.sha for a in saved.applied):
                    ledger.record_commit(
                        saved,
                        plan,
                        done.sha or "",
                        work.head,
                        saved_index=work.saved_index,
                        paths=work.paths,
                        before=ledger.state_before(saved, saved.splits),
                        index_after=work.index_after,
                        op=ledger.OpStart(work.operation) if work.operation else None,
                    )
            elif done.moved and work.undoes:
                taken = ledger.taken_back(saved, work.undoes)
                if taken:
                    fresh = self.capture_changes()
                    write_units(self.folder, ledger.put_back(saved, taken[0], fresh, taken), saved)
                    ledger.record_undo(
                        saved,
                        ledger.operations_named(saved, work.undoes),
                        ledger.OpStart(ledger.next_op_id(saved)),
                        work.head,
                        done.journal.target,
                    )
            elif done.moved and saved.applied and saved.applied[-1].sha == work.undone:
                write_units(self.folder, ledger.put_back(saved, saved.applied[-1], self.capture_changes()), saved)
            self.log("segmint", "recovered", done.sentence, saved)
            try:
                write_saved(self.folder, saved)
            except OSError:
                if done.moved:
                    raise
                # Rolled back (or left alone): the session lost nothing, only this line of its activity.

        return journal.finish(self.git, settle)

    def _tell_interrupted_split(self) -> None:
        """A split a killed process left half planned or half applied, told once, unless the apply it
        was killed in is told already (finished or rolled back above)."""
        sentence = split.interrupted(self.git)
        if sentence is not None and not self.recovered:
            self.recovered.append(sentence)
            self.log("segmint", "recovered", sentence)

    def _told_set_aside(self, aside: Path) -> None:
        """Told on the command line, in the TUI, and in the new session's activity (an agent's get_session)."""
        sentence = f"Segmint could not read its saved session: it is kept as {aside}, and a new session starts."
        self.recovered.append(sentence)
        self.log("segmint", "set aside", sentence)

    def _adopt_saved(self) -> None:
        """Take up the state another process saved since we last read or wrote it
        (at start-up, what the last run left)."""
        stamp = file_stamp(self.folder / STATE_FILE)
        if stamp is None or stamp == self._disk_stamp:
            return
        self._disk_stamp = stamp
        saved = read_saved(self.folder, self._told_set_aside)
        if saved is None:
            return
        first = self.state.revision == 0 and not self.state.groups
        self.state = saved
        current = self.units.changeset
        if saved.fingerprint != current.fingerprint or saved.head != current.head:
            # Changes read before the lock may predate another process's commit: then they are read again,
            # or the session would take them for the tree's and its record of HEAD would go back.
            just_read = self._units_just_read and self._tree_stamp() == self._read_at
            fresh = current if just_read else self.capture_changes()
            old_units, old_paths = read_units(self.folder, saved.units_stamp)
            if saved.fingerprint is None and saved.head == fresh.head:  # left by a partial re-read
                units = Units(fresh, saved.splits)
                if unit_signatures(units) == old_units and _paths(units) == old_paths:
                    saved.fingerprint = fresh.fingerprint
            if saved.fingerprint != fresh.fingerprint or saved.head != fresh.head:
                committed = ledger.just_committed(saved)
                self._remap_to(fresh, [u for u in old_units if u.id not in committed], old_paths)
                return
            current = fresh
        self.units = Units(current, saved.splits)
        if not first:
            self.announce(events.CHANGES, "segmint", {"reloaded": True})


def _mark_moved_head(state: SavedState, head: str | None) -> None:
    """Open plans proposed on another HEAD are out of date: HEAD moved outside Segmint
    (a commit, a reset, a checkout), and a plan commits only on the HEAD it was made for."""
    for plan in state.plans:
        if plan.status != APPLIED and plan.base != head and not plan.stale:
            plan.stale = f"HEAD moved from {short_head(plan.base)} to {short_head(head)}"


def short_head(oid: str | None) -> str:
    return oid[:7] if oid else "an unborn branch"


def _paths(units: Units) -> dict[str, str]:
    return {c.id: c.file_path for c in units.changes}
