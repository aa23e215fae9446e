"""``TrajectoryService``: the six edit-timeline tools, over one recording.

Each public tool method takes the seed's arguments and returns a ``ToolResult``
(markdown ``text`` sized for a model's context, structured ``data`` beside it),
or raises ``SegmintError`` with one deterministic sentence on bad input.

``TOOLS`` names the tool methods with their MCP annotations. Threading:
methods are plain, blocking and thread-safe. The watcher and the
debouncer run on their own threads, so an asyncio server should call these
through a worker thread (``anyio.to_thread.run_sync``) and ``stop()`` on shutdown.
"""

from __future__ import annotations

import os
import threading
from datetime import datetime
from pathlib import Path

from segmint_core.git import Git
from segmint_core.roots import AllowedRoots
from segmint_core.toolresult import ToolResult
from segmint_core.trajectory import commit_messages as msgs
from segmint_core.trajectory import provenance
from segmint_core.trajectory import format as fmt
from segmint_core.trajectory.clock import Clock, aware, system_clock
from segmint_core.trajectory.errors import TrajectoryError
from segmint_core.trajectory.history import FileVersion, commit_diffs, file_history, read_log
from segmint_core.trajectory.ignore import is_internal
from segmint_core.trajectory.recording import DEFAULT_DEBOUNCE, Recording
from segmint_core.trajectory.sessions import SESSION_GAP, split_sessions

# The tools in the seed's order, with MCP annotations (hints for clients).
# consolidate rewrites the shadow history (never the project's), hence destructive.
TOOLS: dict[str, dict[str, bool]] = {
    "configure_project": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
    "set_trajectory_intent": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
    "finish_trajectory_intent": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
    "get_file_trajectory": {"readOnlyHint": True},
    "get_global_trajectory": {"readOnlyHint": True},
    "get_session_summary": {"readOnlyHint": True},
    "consolidate": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False},
}

SOURCE = "mcp"  # provenance's name for intents an agent declares over MCP
MAX_DEPTH = 50
MAX_LIMIT = 200
MAX_SINCE_CONSOLIDATE = 500


class TrajectoryService:
    """The edit timeline of one project at a time: recorder, watcher and tools.

    ``debounce`` is the quiet time (seconds) after a path's last save before it
    is recorded; ``clock`` gives the wall-clock time (tests inject one). With
    ``roots`` (as the MCP server has), a project outside them is refused.
    """

    def __init__(
        self,
        *,
        debounce: float = DEFAULT_DEBOUNCE,
        clock: Clock = system_clock,
        lock_timeout: float = 3.0,
        roots: AllowedRoots | None = None,
    ) -> None:
        self.debounce = debounce
        self.roots = roots
        self.clock = clock
        self.lock_timeout = lock_timeout
        self._lock = threading.RLock()
        self._recording: Recording | None = None
        self._intent: str | None = None

    # -- lifecycle (for the TUI, `segmint mcp` and `segmint trajectory watch`) ---

    def start(self, root: str) -> ToolResult:
        """Start recording the project at ``root`` (same as ``configure_project``)."""
        return self.configure_project(os.path.abspath(root))

    def stop(self) -> None:
        """Stop watching; saves still waiting in the debouncer are recorded first."""
        with self._lock:
            recording, self._recording = self._recording, None
        if recording is not None:
            recording.stop()

    @property
    def recording(self) -> Recording | None:
        """The running recording, if a project is configured."""
        with self._lock:
            return self._recording

    @property
    def intent(self) -> str | None:
        with self._lock:
            return self._intent

    def __enter__(self) -> "TrajectoryService":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- tools -----------------------------------------------------------------

    def configure_project(self, path: str) -> ToolResult:
        """Start recording a project's edit timeline.

        ``path`` must be absolute and inside a git work tree; the work tree's top
        folder becomes the project. Over MCP, only the session's repository (or
        a folder the person allowed with ``--allow-root``) can be the project. Creates the shadow repository ``.trajectory/``
        (kept ignored by a line in ``.git/info/exclude``, added once unless a rule
        already ignores it: no tracked file is written), records the current tree,
        and starts a watcher that snapshots every save after a short debounce.
        Calling it again with the same project keeps the running recorder; another
        project replaces it. Nothing else of the project's ``.git`` is written.
        """
        if not isinstance(path, str) or not path:
            raise TrajectoryError("path must be a non-empty absolute path.")
        if "\0" in path:
            raise TrajectoryError("path cannot hold a NUL byte: no folder name can.")
        if not os.path.isabs(path):
            raise TrajectoryError(f"path must be absolute: {path}")
        if self.roots is not None:
            self.roots.check(path)  # before git even looks there
        root = os.path.realpath(Git.discover(path).root)
        if self.roots is not None:
            self.roots.check(root)  # the project is the whole work tree, which may reach above the folder
        with self._lock:
            current = self._recording
            if current is not None and current.root == root and current.recorder.shadow.exists():
                return self._configured(current, already_running=True)
            if current is not None:
                self._recording = None
                current.stop()
            recording = Recording(root, debounce=self.debounce, clock=self.clock, lock_timeout=self.lock_timeout)
            recording.recorder.intent = self._intent
            recording.start()
            self._recording = recording
            return self._configured(recording, already_running=False)

    def set_trajectory_intent(self, intent: str) -> ToolResult:
        """Set the intent (the "why") of the work from now on: one task, in a few words.

        ``intent`` is a short description of the current task ("Fix bug #123").
        It is recorded as the task of the edits that follow (the repository's
        provenance record, which grouping and commit titles read), and kept with
        every later snapshot of the timeline until set again or finished with
        ``finish_trajectory_intent``. It may be set before ``configure_project``.
        """
        text = _clean_intent(intent)
        root = self._provenance_root()
        if root is not None:
            provenance.begin_intent(Path(root), text, source=SOURCE)
        with self._lock:
            previous, self._intent = self._intent, text
            if self._recording is not None:
                self._recording.recorder.intent = text
        return ToolResult(
            f"Intent set: {text}. Edits from now on are recorded under it.\n",
            {"intent": text, "previous": previous, "recorded_in": root},
        )

    def follow_intent(self, text: str | None) -> None:
        """Record later snapshots under ``text``, a task said elsewhere (a person's ``segmint intent``,
        already in the provenance record): the timeline's labels follow it."""
        with self._lock:
            self._intent = text
            if self._recording is not None:
                self._recording.recorder.intent = text

    def finish_trajectory_intent(self) -> ToolResult:
        """Say the current task is finished: edits from now on belong to no intent until the next one is set."""
        root = self._provenance_root()
        if root is not None:
            provenance.end_intent(Path(root), source=SOURCE)
        with self._lock:
            finished, self._intent = self._intent, None
            if self._recording is not None:
                self._recording.recorder.intent = None
        text = f"Finished: {finished}.\n" if finished else "No intent was set: nothing to finish.\n"
        return ToolResult(text, {"finished": finished, "recorded_in": root})

    def _provenance_root(self) -> str | None:
        """The repository whose provenance record an intent goes to: the recorded project, else the session's."""
        with self._lock:
            if self._recording is not None:
                return self._recording.root
        repository = self.roots.repository() if self.roots is not None else None
        return os.path.realpath(repository) if repository else None

    def get_file_trajectory(self, filepath: str, depth: int = 5) -> ToolResult:
        """How one file evolved: its last ``depth`` snapshots, oldest to newest, with diffs.

        ``filepath`` is relative to the project root (an absolute path inside the
        project is accepted). A snapshot whose content equals an earlier state of
        the file is marked ``**[Revert Detected]** (Matches state from <time>)``.
        Large diffs are cut with a note of how much was left out.
        """
        recording = self._require()
        depth = _positive(depth, "depth", MAX_DEPTH)
        rel = self._project_path(recording.root, filepath)
        versions = file_history(recording.recorder.shadow, rel)
        if not versions:
            raise TrajectoryError(f"No recorded snapshots for file: {rel}")
        shown = versions[-depth:]
        diffs = commit_diffs(recording.recorder.shadow, [v.commit.commit for v in shown], rel)
        budget = fmt.diff_budget(len(shown))
        offset = len(versions) - len(shown)
        entries = []
        for n, version in enumerate(shown):
            cut = fmt.truncate(diffs.get(version.commit.commit, ""), max_chars=budget)
            revert = _earlier_match(versions, offset + n)
            entries.append(
                {
                    **version.commit.to_dict(),
                    "status": version.status,
                    "blob": version.blob,
                    "diff": cut.text,
                    "diff_truncated": cut.note(),
                    "revert_of": None
                    if revert is None
                    else {
                        "commit": revert.commit.commit,
                        "time": revert.commit.when.isoformat(),
                    },
                }
            )
        data = {"filepath": rel, "depth": depth, "total_snapshots": len(versions), "snapshots": entries}
        return ToolResult(fmt.file_trajectory(data, self._now()), data)

    def get_global_trajectory(self, limit: int = 20, since_consolidate: bool = False) -> ToolResult:
        """Recent activity across the whole project, oldest first: time, message, files changed.

        Returns the last ``limit`` shadow commits, or with ``since_consolidate``
        every commit after the most recent ``[CONSOLIDATE]`` (``limit`` is then
        ignored; at most 500 are listed).
        """
        recording = self._require()
        limit = _positive(limit, "limit", MAX_LIMIT)
        if not isinstance(since_consolidate, bool):
            raise TrajectoryError("since_consolidate must be true or false.")
        shadow = recording.recorder.shadow
        total = int(shadow.run("rev-list", "--count", "HEAD").text.strip() or 0) if shadow.head() else 0
        anchor = None
        if since_consolidate:
            log = read_log(shadow, limit=MAX_SINCE_CONSOLIDATE + 1, with_files=True)
            for n, commit in enumerate(log):
                if commit.kind == msgs.CONSOLIDATE:
                    anchor, log = commit, log[:n]
                    break
            truncated = len(log) > MAX_SINCE_CONSOLIDATE
            log = log[:MAX_SINCE_CONSOLIDATE]
        else:
            log = read_log(shadow, limit=limit, with_files=True)
            truncated = False
        commits = [
            {
                **c.to_dict(),
                "files": [f.to_dict() for f in c.files[: fmt.FILES_PER_COMMIT]],
                "files_total": len(c.files),
            }
            for c in reversed(log)
        ]
        data = {
            "limit": limit,
            "since_consolidate": since_consolidate,
            "after_consolidate": None
            if anchor is None
            else {
                "commit": anchor.commit,
                "time": anchor.when.isoformat(),
                "message": anchor.subject,
            },
            "total_commits": total,
            "truncated": truncated,
            "commits": commits,
        }
        return ToolResult(fmt.global_trajectory(data, self._now()), data)

    def get_session_summary(self) -> ToolResult:
        """Where the last work session stopped: its time span, final intent and final state.

        Snapshots more than an hour apart belong to different sessions; if the
        last snapshot is more than an hour old, this call starts a new session.
        Lists the files the last session changed (its end versus its start) and
        the intents it recorded. Requires ``configure_project``.
        """
        recording = self._require()
        shadow = recording.recorder.shadow
        now = self._now()
        sessions = split_sessions(list(reversed(read_log(shadow))))
        last = None
        gap = None
        if sessions:
            session = sessions[-1]
            gap = (now - session.ended).total_seconds()
            first, final = session.commits[0], session.commits[-1]
            # A session that began with recording itself is measured from the baseline.
            before = first.commit if first.kind == msgs.BASELINE else first.parent
            files = shadow.diff_stats(before, final.commit)
            last = {
                "started": session.started.isoformat(),
                "ended": session.ended.isoformat(),
                "snapshots": sum(1 for c in session.commits if c.kind != msgs.BASELINE),
                "intents": session.intents,
                "final_intent": session.final_intent,
                "last_commit": final.commit,
                "last_message": final.subject,
                "files": [f.to_dict() for f in files[: fmt.FILES_PER_COMMIT * 3]],
                "files_total": len(files),
            }
        data = {
            "now": now.isoformat(),
            "session_gap_seconds": SESSION_GAP,
            "is_new_session": gap is None or gap > SESSION_GAP,
            "gap_seconds": gap,
            "sessions_total": len(sessions),
            "current_intent": self.intent,
            "last_session": last,
        }
        return ToolResult(fmt.session_summary(data, now), data)

    def consolidate(self, intent: str) -> ToolResult:
        """Squash the trailing ``[AUTO-TRJ]`` snapshots into one ``[CONSOLIDATE] <time> - <intent>`` commit.

        ``intent`` summarises the work done ("Implemented login"). Only the
        shadow repository changes (the project and its ``.git`` are untouched);
        the recorded state stays the same, the steps in between are folded.
        """
        recording = self._require()
        text = _clean_intent(intent)
        result = recording.recorder.consolidate(text)
        data = {
            "intent": text,
            "squashed": result.squashed,
            "commit": result.commit,
            "base": result.base,
            "replaced": list(result.replaced),
        }
        if result.commit is None:
            message = "Nothing to consolidate: no [AUTO-TRJ] snapshots since the last consolidate or baseline.\n"
        else:
            message = (
                f"Consolidated {result.squashed} snapshots into `{result.commit[:7]}` "
                f"[CONSOLIDATE] {result.when.strftime('%H:%M:%S')} - {text}.\n"
            )
        return ToolResult(message, data)

    # -- helpers ---------------------------------------------------------------

    def _require(self) -> Recording:
        with self._lock:
            recording = self._recording
        if recording is None:
            raise TrajectoryError("No project configured: call configure_project with an absolute path first.")
        if not recording.recorder.shadow.exists():  # removed while recording: no save since was kept
            raise TrajectoryError(
                f"{recording.recorder.shadow.git_dir} was removed while recording, so saves since are not "
                "recorded; call configure_project again to start a new timeline."
            )
        return recording

    def _now(self) -> datetime:
        return aware(self.clock())

    def _configured(self, recording: Recording, *, already_running: bool) -> ToolResult:
        opening = recording.opening
        data = {
            "root": recording.root,
            "shadow_dir": recording.recorder.shadow.git_dir,
            "already_running": already_running,
            "debounce_seconds": recording.debouncer.delay,
            "exclude_updated": recording.exclude_updated,
            "intent": self._intent,
            "opening_snapshot": None
            if opening is None
            else {
                "commit": opening.commit,
                "kind": opening.kind,
                "message": opening.subject,
            },
        }
        if already_running:
            text = f"Already recording {recording.root}; the running recorder continues.\n"
        else:
            text = f"Recording {recording.root} into .trajectory/ (debounce {recording.debouncer.delay:g} s).\n"
            if recording.exclude_updated:
                text += "Added .trajectory/ to .git/info/exclude, so git ignores it; no tracked file was written.\n"
            if opening is not None:
                text += f"Opening snapshot: `{opening.commit[:7]}` {opening.subject}\n"
        return ToolResult(text, data)

    @staticmethod
    def _project_path(root: str, filepath: str) -> str:
        if not isinstance(filepath, str) or not filepath.strip():
            raise TrajectoryError("filepath must be a non-empty path relative to the project root.")
        if "\0" in filepath:
            raise TrajectoryError("filepath cannot hold a NUL byte: no file name can.")
        if os.path.isabs(filepath):
            rel = os.path.relpath(os.path.realpath(filepath), root)
        else:
            rel = os.path.normpath(filepath)
        rel = rel.replace(os.sep, "/")
        if rel == ".." or rel.startswith("../") or rel == ".":
            raise TrajectoryError(f"filepath is outside the project: {filepath}")
        if is_internal(rel):
            raise TrajectoryError(f"filepath is inside .git or .trajectory, which are never recorded: {filepath}")
        return rel


def _clean_intent(intent: object) -> str:
    text = msgs.clean_intent(intent) if isinstance(intent, str) else ""
    if not text:
        raise TrajectoryError("intent must be a non-empty string.")
    return text


def _positive(value: object, name: str, cap: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TrajectoryError(f"{name} must be a positive integer, got {value!r}.")
    return min(value, cap)


def _earlier_match(versions: list[FileVersion], index: int) -> FileVersion | None:
    """The latest earlier version with the same content as ``versions[index]``, not counting its predecessor."""
    blob = versions[index].blob
    if blob is None:
        return None
    for earlier in reversed(versions[: max(index - 1, 0)]):
        if earlier.blob == blob:
            return earlier
    return None
