"""Output schemas: the shapes of ``structuredContent``, as TypedDicts.

They mirror the wire shapes the dataclasses encode (``Change.to_dict()``,
``Group.to_dict()``, ``CommitPlan.to_dict()``, ``Session.snapshot()``); the
SDK turns each into the tool's ``outputSchema`` and checks results against it.
Fields added to the models later pass through (extra keys are allowed); a
field removed there fails here, on purpose.
"""

from typing import NotRequired

from typing_extensions import TypedDict


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
    status: str
    binary: bool
    hunks: list[Hunk]
    old_mode: str | None
    new_mode: str | None
    untracked: bool


class Group(TypedDict):
    id: str
    change_ids: list[str]
    hunk_ids: list[str]
    summary: str
    reasons: list[str]
    revision: int
    edited: bool


class PlanCheck(TypedDict):
    commit_id: str
    status: str  # passed | failed | not_checked
    output: str  # the tail of the failure's output, or why it was not checked


class CommitPlan(TypedDict):
    id: str
    title: str
    description: str
    change_group_ids: list[str]
    hunk_ids: list[str]
    change_ids: list[str]
    status: str  # proposed | awaiting_approval | approved | applied | failed
    sha: str | None
    error: str | None
    note: str | None
    revision: int
    edited: bool
    changed: list[str]  # files whose planned hunks changed since it was proposed: apply refuses it
    merge_with: list[str]  # plans it must be merged with to commit: apply refuses it alone


class PullRequestDraft(TypedDict):
    title: str
    description: str
    commits: list[CommitPlan]
    note: str | None
    edited: bool


class ChangeSummary(TypedDict):
    id: str
    file_path: str
    old_path: str | None
    status: str
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


class Activity(TypedDict):
    time: str
    actor: str
    action: str
    text: str
    revision: int


class RefreshReport(TypedDict):
    changed: bool
    vanished: list[str]
    appeared: list[str]
    revision: int


class Doubt(TypedDict):
    kind: str  # move | merge | split
    p: float  # P(the alternative is right)
    text: str
    group_id: str | None
    hunk_ids: NotRequired[list[str]]
    to_group_id: NotRequired[str]  # absent: a new group


class Confidence(TypedDict):
    groups: dict[str, float]
    hunks: dict[str, float]
    uncertain: list[Doubt]


class SessionState(TypedDict):
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
    person_present: bool
    agent_can_commit: bool
    last_refresh: RefreshReport


class ChangesResult(TypedDict):
    changes: list[Change]


class Refinement(TypedDict):
    model: str
    applied: list[str]  # what the chat model changed, with its reasons
    notes: list[str]  # why an answer was not applied (the groups were kept)


class GroupingResult(TypedDict):
    changes: list[Change]
    groups: list[Group]
    confidence: Confidence
    refinement: NotRequired[Refinement]  # with refine=true


class CommitsResult(TypedDict):
    commits: list[CommitPlan]


class CheckAndFix(TypedDict):
    ok: bool  # no commit fails (after the fix, with fix=true)
    commits: list[PlanCheck]
    fixed: NotRequired[str]  # fix=true: the fixes made, in a sentence ("" for none)


class FileCommitted(TypedDict):
    path: str
    added: int
    removed: int


class ApplyResult(TypedDict):
    commit_id: str
    status: str  # applied | awaiting_approval | dry_run
    success: bool  # kept for the first clients: true when committed (or, for a dry run, when it would commit)
    sha: str | None
    files: list[FileCommitted]
    message: str
    revision: int


class GroupEdit(TypedDict):
    group: Group
    groups: list[Group]
    revision: int


class LineMove(TypedDict):
    moved_id: str  # the part holding the moved lines now
    rest_id: str | None  # the part holding the lines left behind (None: none left)
    group: Group
    groups: list[Group]
    revision: int


class GroupRename(TypedDict):
    """Only the renamed group: the others are untouched (and a session may hold a thousand)."""

    group: Group
    revision: int


class CommitEdit(TypedDict):
    commit: CommitPlan
    revision: int


class CommitOrder(TypedDict):
    commits: list[CommitPlan]
    revision: int


class RefreshResult(TypedDict):
    changed: bool
    vanished: list[str]
    appeared: list[str]
    revision: int
    changes_revision: int


class ReviewMessage(TypedDict):
    id: str
    file: str
    line: int | None
    hunk_id: str | None
    comment: str
    project_root: str
    time: str


class MessagesResult(TypedDict):
    count: int
    messages: list[ReviewMessage]
