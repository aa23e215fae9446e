"""Taking snapshots: the project's files, as they are on disk, into the shadow repository.

``Recorder.record(paths)`` stores the current bytes of those paths (files or
folders, relative to the project root) and commits them as one snapshot, or
nothing when their content did not change. It is thread-safe: one in-process
lock serialises writers, and the shadow HEAD is updated compare-and-swap so a
second process recording the same project never loses a snapshot either.

Progress is observable (``stats`` and ``wait_for``) so callers and tests wait on
the recorder's own events instead of sleeping.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from segmint_core.git import Git
from segmint_core.git_modes import EXECUTABLE, REGULAR, SYMLINK
from segmint_core.trajectory import commit_messages as msgs
from segmint_core.trajectory.clock import Clock, aware, system_clock
from segmint_core.trajectory.commit_messages import ProjectHead
from segmint_core.trajectory.history import read_log, trailing_snapshots
from segmint_core.trajectory.ignore import ensure_ignored, recordable_paths
from segmint_core.trajectory.errors import HeadMovedError
from segmint_core.trajectory.shadow import FileStat, IndexEntry, ShadowRepo

log = logging.getLogger(__name__)

CAS_ATTEMPTS = 5


@dataclass(frozen=True)
class Snapshot:
    """A commit the recorder made."""

    commit: str
    kind: str
    when: datetime
    intent: str | None
    files: tuple[FileStat, ...]
    subject: str
    project_head: ProjectHead


@dataclass(frozen=True)
class Consolidation:
    """What ``consolidate`` did: ``squashed`` snapshots replaced by ``commit``."""

    intent: str
    squashed: int
    commit: str | None
    replaced: tuple[str, ...]
    base: str | None
    when: datetime


@dataclass(frozen=True)
class RecorderStats:
    commits: int = 0  # snapshots committed, of any kind
    flushes: int = 0  # record() calls finished, with or without a commit
    lock_waits: int = 0  # times a shadow lock was found taken
    failures: int = 0  # record() calls that raised


class Recorder:
    """Snapshots of the project at ``root`` into ``root/.trajectory``."""

    def __init__(self, root: str, *, clock: Clock = system_clock, lock_timeout: float = 3.0) -> None:
        self.root = root
        self.clock = clock
        self.project = Git(root)
        self.shadow = ShadowRepo(root, lock_timeout=lock_timeout, on_lock_wait=self._lock_waited)
        self.intent: str | None = None
        self.exclude_updated = False
        self._write_lock = threading.RLock()
        self._progress = threading.Condition()
        self._stats = RecorderStats()
        self._last_head: ProjectHead | None = None
        self._listeners: list[Callable[[Snapshot], None]] = []

    # -- observing -------------------------------------------------------------

    @property
    def stats(self) -> RecorderStats:
        with self._progress:
            return self._stats

    def wait_for(self, predicate: Callable[[RecorderStats], bool], timeout: float) -> bool:
        """Block until ``predicate(stats)`` holds; False on timeout."""
        with self._progress:
            return self._progress.wait_for(lambda: predicate(self._stats), timeout)

    def add_listener(self, callback: Callable[[Snapshot], None]) -> None:
        """Call ``callback(snapshot)`` after each commit (on the recording thread)."""
        self._listeners.append(callback)

    def _bump(self, **increments: int) -> None:
        with self._progress:
            self._stats = replace(self._stats, **{k: getattr(self._stats, k) + v for k, v in increments.items()})
            self._progress.notify_all()

    def _lock_waited(self, _message: str) -> None:
        self._bump(lock_waits=1)

    # -- recording -------------------------------------------------------------

    def open(self) -> Snapshot | None:
        """Create the shadow repository if needed and catch up with the tree as it is.

        Keeps ``.trajectory/`` ignored (a line in ``.git/info/exclude``, once; no tracked file). The first
        time this commits a ``[BASELINE]``; later, edits made while nothing was
        recording become one ``[RESYNC]`` snapshot.
        """
        self.shadow.init()
        self.exclude_updated = ensure_ignored(self.root)
        latest = read_log(self.shadow, limit=1)
        self._last_head = latest[0].project_head if latest else None
        return self.record(None, kind=msgs.RESYNC)

    def record(self, paths: list[str] | None, *, kind: str = msgs.SNAPSHOT) -> Snapshot | None:
        """Snapshot ``paths`` (files or folders; None: the whole tree). None if nothing changed."""
        try:
            with self._write_lock:
                for _ in range(CAS_ATTEMPTS - 1):
                    try:
                        return self._record_once(paths, kind)
                    except HeadMovedError:
                        log.debug("shadow HEAD moved under us; taking the snapshot again")
                return self._record_once(paths, kind)
        except Exception:
            self._bump(failures=1)
            raise
        finally:
            self._bump(flushes=1)

    def _record_once(self, paths: list[str] | None, kind: str) -> Snapshot | None:
        parent = self.shadow.head()
        wanted = recordable_paths(self.project, paths)
        known = self.shadow.ls_files(paths)
        self.shadow.update_index(self._index_entries(wanted, known))
        tree = self.shadow.write_tree()
        if parent is not None and tree == self.shadow.tree_of(parent):
            return None
        when = aware(self.clock())
        head = self.project_head()
        stats = self.shadow.diff_stats(parent, tree)
        if parent is None:
            kind, message = msgs.BASELINE, msgs.baseline_message(when, len(wanted), head)
        elif kind == msgs.RESYNC:
            message = msgs.resync_message(when, stats, head)
        else:
            moved_from = self._last_head if self._last_head not in (None, head) else None
            if moved_from is not None:
                log.info("project HEAD moved: %s -> %s", moved_from.describe(), head.describe())
            message = msgs.snapshot_message(when, self.intent, stats, head, moved_from)
        commit = self.shadow.commit_tree(tree, parent, message, when)
        self.shadow.update_head(commit, parent, f"trajectory: {kind}")
        self._last_head = head
        snapshot = Snapshot(
            commit,
            kind,
            when,
            self.intent if kind == msgs.SNAPSHOT else None,
            tuple(stats),
            message.split("\n", 1)[0],
            head,
        )
        self._bump(commits=1)
        self._announce(snapshot)
        return snapshot

    def _index_entries(self, wanted: set[str], known: set[str]) -> list[IndexEntry]:
        entries: list[IndexEntry] = []
        regular: dict[str, str] = {}
        for path in sorted(wanted):
            try:
                st = os.lstat(os.path.join(self.root, path))
            except (FileNotFoundError, NotADirectoryError):
                entries.append(IndexEntry.removal(path))
                continue
            if stat.S_ISREG(st.st_mode):
                regular[path] = EXECUTABLE if st.st_mode & stat.S_IXUSR else REGULAR
            elif stat.S_ISLNK(st.st_mode):
                target = os.readlink(os.path.join(self.root, path))
                entries.append(IndexEntry(path, SYMLINK, self.shadow.hash_bytes(os.fsencode(target))))
            # Anything else (a submodule's folder, a fifo) is not a file to record.
        oids = self.shadow.hash_paths(list(regular))
        for path, mode in regular.items():
            entries.append(IndexEntry(path, mode, oids[path]) if path in oids else IndexEntry.removal(path))
        entries.extend(IndexEntry.removal(p) for p in sorted(known - wanted))
        return entries

    def project_head(self) -> ProjectHead:
        commit_res, branch_res = self.project.run_many(
            ("rev-parse", "--verify", "--quiet", "HEAD^{commit}"),
            ("symbolic-ref", "--quiet", "--short", "HEAD"),
            may_fail=(0, 1),
        )
        commit = commit_res.text.strip() if commit_res.returncode == 0 else ""
        branch = branch_res.text.strip() if branch_res.returncode == 0 else ""
        return ProjectHead(branch or None, commit or None)

    def _announce(self, snapshot: Snapshot) -> None:
        log.info("%s %s", snapshot.commit[:7], snapshot.subject)
        for callback in list(self._listeners):
            try:
                callback(snapshot)
            except Exception:  # a listener's bug must not stop recording
                log.exception("trajectory listener failed")

    # -- consolidating ---------------------------------------------------------

    def consolidate(self, intent: str) -> Consolidation:
        """Squash the trailing ``[AUTO-TRJ]`` snapshots into one ``[CONSOLIDATE]`` commit.

        Only the shadow repository changes; its tree (the recorded state) stays
        the same, so nothing recorded is lost, only the steps in between.
        """
        with self._write_lock:
            for attempt in range(CAS_ATTEMPTS):
                try:
                    return self._consolidate_once(intent)
                except HeadMovedError:
                    if attempt == CAS_ATTEMPTS - 1:
                        raise
        raise AssertionError("unreachable")

    def _consolidate_once(self, intent: str) -> Consolidation:
        when = aware(self.clock())
        head = self.shadow.head()
        run = trailing_snapshots(self.shadow)  # newest first
        if head is None or not run:
            return Consolidation(intent, 0, None, (), None, when)
        base = run[-1].parent
        message = msgs.consolidate_message(when, intent, len(run), run[-1].when, run[0].when)
        commit = self.shadow.commit_tree(self.shadow.tree_of(head), base, message, when)
        self.shadow.update_head(commit, head, "trajectory: consolidate")
        replaced = tuple(c.commit for c in reversed(run))
        self._bump(commits=1)
        return Consolidation(intent, len(run), commit, replaced, base, when)
