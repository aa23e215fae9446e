"""What each tool answers (``structuredContent``), made of the dataclasses that are the wire shapes.

A tool's return type names its result here; the SDK derives the tool's
``outputSchema`` from it with pydantic and checks every result against it
before it is sent (``tools/list`` sends the first level: ``listing.py``). The
groups, commit plans, PR draft, activity, refresh report, check results and
apply outcome are the session's own dataclasses, so a field added there is in
the schema at once, and a field removed fails here.

Written here, as TypedDicts, are the shapes whose JSON is written by hand: a
change and its hunks (``segmint changes``' encoder, on a start-up path that does
not import ``dataclasses``: see ``segmint_core.changes.models``), the summaries
``get_session`` builds of them, and the few shapes whose JSON renames or
rounds their fields (confidence, a review message, a refinement).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired

from typing_extensions import TypedDict

from segmint_core.changes.models import ChangeStatus
from segmint_core.checking.models import CheckResult
from segmint_core.session.applying import ApplyOutcome
from segmint_core.session.confidence import DoubtKind
from segmint_core.session.models import Activity, CommitPlan, Group, Operation, PullRequestDraft
from segmint_core.session.state import RefreshReport

__all__ = ["PullRequestDraft"]  # generate_pr answers with the draft itself


class Hunk(TypedDict):
    id: str
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    header: str
    lines: list[str]
    staged: bool
    parent_id: NotRequired[str]  # set on a sub-hunk split from a larger hunk


class Change(TypedDict):
    id: str
    file_path: str
    old_path: str | None
    status: ChangeStatus
    binary: bool
    hunks: list[Hunk]
    old_mode: str | None
    new_mode: str | None
    untracked: bool


class ChangeSummary(TypedDict):
    id: str
    file_path: str
    old_path: str | None
    status: ChangeStatus
    binary: bool
    added: int
    removed: int
    hunk_ids: list[str]


class HunkPart(TypedDict):
    """One part of a hunk cut line by line (move_lines)."""

    id: str  # the part's own hunk id (change-3:2.2)
    hunk_id: str  # the hunk it was cut from (change-3:2)
    positions: list[int]  # where its lines are among that hunk's changed lines (1-based)
    lines: list[str]  # its changed lines, with their +/- sign
    group_id: str | None


class Doubt(TypedDict):
    kind: DoubtKind
    p: float  # P(the alternative is right)
    text: str
    group_id: str | None
    hunk_ids: NotRequired[list[str]]
    to_group_id: NotRequired[str]  # absent: a new group


class Confidence(TypedDict):
    groups: dict[str, float]
    hunks: dict[str, float]
    uncertain: list[Doubt]


class Refinement(TypedDict):
    model: str
    applied: list[str]  # what the chat model changed, with its reasons
    notes: list[str]  # why an answer was not applied (the groups were kept)


class ReviewMessage(TypedDict):
    id: str
    file: str
    line: int | None
    hunk_id: str | None
    comment: str
    project_root: str
    time: str


@dataclass
class SessionState:
    revision: int
    changes_revision: int
    head: str | None
    changes: list[ChangeSummary]
    parts: list[HunkPart]
    groups: list[Group]
    confidence: Confidence
    plans: list[CommitPlan]
    approvals_pending: list[str]
    pr: PullRequestDraft | None
    activity: list[Activity]
    operations: list[Operation]
    person_present: bool
    agent_can_commit: bool
    last_refresh: RefreshReport
    message_style: str


@dataclass
class ChangesResult:
    changes: list[Change]


@dataclass
class GroupingResult:
    changes: list[Change]
    groups: list[Group]
    confidence: Confidence
    refinement: Refinement | None = None  # with refine=true


@dataclass
class CommitsResult:
    commits: list[CommitPlan]


@dataclass
class CheckAndFix:
    ok: bool  # no commit fails (after the fix, with fix=true)
    commits: list[CheckResult]
    fixed: str | None = None  # fix=true: the fixes made, in a sentence ("" for none)


@dataclass
class ApplyResult(ApplyOutcome):
    success: bool = False  # kept for the first clients: true when committed (or, for a dry run, when it would commit)
    revision: int = 0


@dataclass
class GroupEdit:
    group: Group
    groups: list[Group]
    revision: int


@dataclass
class LineMove:
    moved_id: str  # the part holding the moved lines now
    rest_id: str | None  # the part holding the lines left behind (None: none left)
    group: Group
    groups: list[Group]
    revision: int


@dataclass
class GroupRename:
    """Only the renamed group: the others are untouched (and a session may hold a thousand)."""

    group: Group
    revision: int


@dataclass
class CommitEdit:
    commit: CommitPlan
    revision: int


@dataclass
class CommitOrder:
    commits: list[CommitPlan]
    revision: int


@dataclass
class RefreshResult(RefreshReport):
    changes_revision: int = 0


@dataclass
class UndoResult:
    operations: list[str]  # the operations taken back
    commits: list[str]  # the commits taken back, oldest first
    head: str | None  # HEAD now
    message: str  # what was undone, in a sentence


@dataclass
class MessagesResult:
    count: int
    messages: list[ReviewMessage]
