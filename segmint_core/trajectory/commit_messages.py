"""The shadow repository's commit messages, built and read back.

Subjects follow one fixed form so people and agents can read the log directly::

    [AUTO-TRJ] 14:03:07 - Fix login - app.py (+3 -1), util.py (new, +10)
    [CONSOLIDATE] 15:00:00 - Implemented login
    [BASELINE] 14:00:00 - recording started - 42 files
    [RESYNC] 09:00:00 - changes made while not recording - app.py (+1 -0)

The subject is for reading; what code needs (the intent, the project's HEAD)
is repeated in trailers, because an intent may itself contain `` - ``.
``[BASELINE]`` (the tree when recording first started) and ``[RESYNC]`` (edits
made while nothing was recording) are ours: they give the first real snapshot a
parent to diff against, and keep edits of unknown time out of the timeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from segmint_core.trajectory.clock import hms
from segmint_core.trajectory.shadow import FileStat
from segmint_core.wording import shown as readable_name

SNAPSHOT = "snapshot"
CONSOLIDATE = "consolidate"
BASELINE = "baseline"
RESYNC = "resync"
OTHER = "other"

PREFIX = {
    SNAPSHOT: "[AUTO-TRJ]",
    CONSOLIDATE: "[CONSOLIDATE]",
    BASELINE: "[BASELINE]",
    RESYNC: "[RESYNC]",
}

# Commits whose edits happened at a known time under a known intent.
TIMED_KINDS = (SNAPSHOT, CONSOLIDATE)

NO_INTENT = "(no intent)"
INTENT_TRAILER = "Trajectory-Intent"
HEAD_TRAILER = "Trajectory-Project-Head"
MAX_INTENT = 200
FILES_IN_SUBJECT = 4


@dataclass(frozen=True)
class ProjectHead:
    """Where the project's own HEAD pointed when a snapshot was taken."""

    branch: str | None  # short name ("main"), None when detached
    commit: str | None  # None on an unborn branch

    def describe(self) -> str:
        where = self.branch or "detached HEAD"
        return f"{where} @ {self.commit[:7]}" if self.commit else f"{where} (no commits yet)"

    def trailer(self) -> str:
        return f"{self.branch or 'HEAD'} {self.commit or 'unborn'}"

    @classmethod
    def from_trailer(cls, value: str) -> "ProjectHead | None":
        name, _, commit = value.strip().rpartition(" ")
        if not name:
            return None
        return cls(None if name == "HEAD" else name, None if commit == "unborn" else commit)


def clean_intent(intent: str) -> str:
    """One line, no control characters, at most ``MAX_INTENT`` characters."""
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in intent).split())
    return text[:MAX_INTENT]


def summarize_files(stats: list[FileStat], limit: int = FILES_IN_SUBJECT) -> str:
    """``a.py (+3 -1), b.py (new, +10) and 3 more files (+40 -5)``."""
    if not stats:
        return "no content change"
    # A name's newline, shown as \\n, can neither cut the subject nor pass for a trailer.
    shown = ", ".join(f"{readable_name(s.path)} ({_counts(s)})" for s in stats[:limit])
    rest = stats[limit:]
    if rest:
        added = sum(s.added for s in rest)
        removed = sum(s.removed for s in rest)
        shown += f" and {len(rest)} more files (+{added} -{removed})"
    return shown


def _counts(s: FileStat) -> str:
    if s.binary:
        counts = "binary"
    else:
        counts = (
            f"+{s.added} -{s.removed}"
            if s.status == "modified"
            else (f"+{s.added}" if s.status == "added" else f"-{s.removed}")
        )
    return counts if s.status == "modified" else f"{'new' if s.status == 'added' else 'deleted'}, {counts}"


def snapshot_message(
    when: datetime,
    intent: str | None,
    stats: list[FileStat],
    head: ProjectHead,
    moved_from: ProjectHead | None,
) -> str:
    summary = summarize_files(stats)
    if moved_from is not None:
        summary += f"; project HEAD now {head.describe()}"
    subject = f"{PREFIX[SNAPSHOT]} {hms(when)} - {intent or NO_INTENT} - {summary}"
    return _with_trailers(subject, "", intent, head)


def baseline_message(when: datetime, files: int, head: ProjectHead) -> str:
    subject = f"{PREFIX[BASELINE]} {hms(when)} - recording started - {files} files"
    return _with_trailers(subject, "The project's tree when recording started.", None, head)


def resync_message(when: datetime, stats: list[FileStat], head: ProjectHead) -> str:
    subject = f"{PREFIX[RESYNC]} {hms(when)} - changes made while not recording - {summarize_files(stats)}"
    return _with_trailers(subject, "Edits made while nothing was recording; their time is unknown.", None, head)


def consolidate_message(when: datetime, intent: str, squashed: int, first: datetime, last: datetime) -> str:
    subject = f"{PREFIX[CONSOLIDATE]} {hms(when)} - {intent}"
    body = f"Squashed {squashed} snapshots taken from {hms(first)} to {hms(last)}."
    return _with_trailers(subject, body, intent, None)


def _with_trailers(subject: str, body: str, intent: str | None, head: ProjectHead | None) -> str:
    trailers = []
    if intent:
        trailers.append(f"{INTENT_TRAILER}: {intent}")
    if head is not None:
        trailers.append(f"{HEAD_TRAILER}: {head.trailer()}")
    parts = [subject]
    if body:
        parts.append(body)
    if trailers:
        parts.append("\n".join(trailers))
    return "\n\n".join(parts) + "\n"


def kind_of(subject: str) -> str:
    for kind, prefix in PREFIX.items():
        if subject.startswith(prefix + " ") or subject == prefix:
            return kind
    return OTHER


def trailers_of(body: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in body.splitlines():
        name, sep, value = line.partition(": ")
        if sep and name in (INTENT_TRAILER, HEAD_TRAILER):
            found[name] = value.strip()
    return found
