"""The session's data: groups, commit plans, the PR draft, the activity log.

Wire shapes as agents and the TUI read them, declared here once: their JSON (``to_dict``,
``from_dict``) and their MCP output schemas are derived from these dataclasses
(``segmint_core.wire``, ``segmint_core.mcp.schemas``). Fields added here (``revision``,
``change_ids`` on plans, ``sha``/``error``/``note``) are additions, never renames.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from segmint_core.wire import from_wire, to_wire


class PlanStatus(StrEnum):
    """Where a commit plan stands; on the wire, its value ("awaiting_approval")."""

    PROPOSED = "proposed"
    AWAITING_APPROVAL = "awaiting_approval"
    APPROVED = "approved"
    APPLIED = "applied"
    FAILED = "failed"


# The members by their bare names, as the many callers compare them.
PROPOSED, AWAITING_APPROVAL, APPROVED, APPLIED, FAILED = PlanStatus
PLAN_STATUSES = tuple(PlanStatus)

# The end of the note of a plan that must be merged (``CommitPlan.merge_with``), what it says to do.
MERGE_TO_COMMIT = "merge their groups to commit"


class Actor(StrEnum):
    """Who did something to the session: the person (TUI, command line), an agent (MCP), or Segmint itself."""

    PERSON = "person"
    AGENT = "agent"
    SEGMINT = "segmint"


PERSON, AGENT, SEGMINT = Actor


@dataclass
class Group:
    id: str
    change_ids: list[str]
    hunk_ids: list[str]
    summary: str
    reasons: list[str] = field(default_factory=list)
    revision: int = 0
    edited: bool = False  # summary set by a person or agent: kept when hunks move

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Group":
        return from_wire(cls, data)


@dataclass
class CommitPlan:
    id: str
    title: str
    description: str
    change_group_ids: list[str]
    hunk_ids: list[str]
    change_ids: list[str] = field(default_factory=list)
    status: PlanStatus = PlanStatus.PROPOSED
    sha: str | None = None
    error: str | None = None
    note: str | None = None
    revision: int = 0
    edited: bool = False  # message set by a person or agent: kept when commits are proposed again
    changed: list[str] = field(default_factory=list)  # files whose planned hunks changed since: not applied
    base: str | None = None  # HEAD when it was proposed (None: unborn, or a session saved before this was kept)
    stale: str | None = None  # another thing that changed since it was proposed ("HEAD moved from ...")
    # Open plans this one can only be committed with (each needs the other's lines): apply refuses it
    # until their groups are merged and commits proposed again.
    merge_with: list[str] = field(default_factory=list)
    # The last check of this commit on its own (``segmint check``): status, check, tree, output.
    check: dict[str, Any] | None = None
    absorb_into: str | None = None  # a fix folded into this unpushed commit, not a new commit (``segmint absorb``)

    @property
    def why_out_of_date(self) -> str | None:
        """What changed since this plan was proposed, in a few words ("app.py changed"), or None."""
        reasons = ([f"{', '.join(self.changed)} changed"] if self.changed else []) + (
            [self.stale] if self.stale else []
        )
        return ", and ".join(reasons) or None

    @property
    def out_of_date(self) -> str | None:
        """Why this plan can no longer be applied as proposed, or None."""
        why = self.why_out_of_date
        return f"{self.id} is out of date: {why} since it was proposed; propose commits again" if why else None

    @property
    def message(self) -> str:
        return f"{self.title}\n\n{self.description}".rstrip() + "\n" if self.description else self.title + "\n"

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CommitPlan":
        if "merge_with" not in data and (data.get("note") or "").endswith(MERGE_TO_COMMIT):
            # Saved before the field: such a plan was marked by its note alone ("Depends on commit-3 ...").
            data = {**data, "merge_with": re.findall(r"\bcommit-\d+\b", data["note"])}
        return from_wire(cls, data)


@dataclass
class PullRequestDraft:
    title: str
    description: str
    commits: list[CommitPlan]  # as they were when drafted
    note: str | None = None
    edited: bool = False  # title or description set by a person or agent since it was drafted

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PullRequestDraft":
        return from_wire(cls, {**data, "commits": [CommitPlan.from_dict(c) for c in data["commits"]]})


@dataclass
class Activity:
    time: str  # ISO 8601, UTC
    actor: Actor
    action: str  # a short verb: moved, merged, renamed, applied, ...
    text: str  # one readable sentence: "agent moved change-3:2 to group-2"
    revision: int

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Activity":
        return from_wire(cls, data)


@dataclass
class AskedFor:
    """What was asked for a commit's lines, as the pull request says it. Kept when the commit is
    made: its lines then leave the working tree, where the record of prompts is read."""

    clause: str  # the task's ask, as a title would say it
    lines: list[str]  # the pull request's task lines: the ask with its follow-ups, and tasks merged in


@dataclass
class AppliedCommit:
    """What `undo` needs to take a Segmint commit back."""

    sha: str
    parent: str | None
    plan_id: str
    index_before: str  # file name of the saved index under .git/segmint/undo/
    paths: list[str]  # index entries the commit changed
    state_before: dict[str, Any]  # groups and plans before the apply, as plain data (never edited)
    index_after: dict[str, str] = field(default_factory=dict)  # those entries as the apply left them
    op: str = ""  # the operation it belongs to (``Operation.id``)
    asked: AskedFor | None = None  # what was asked for its lines, where prompts were recorded

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)  # state_before is shared, not copied: asdict's deep copy made saving quadratic

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AppliedCommit":
        return from_wire(cls, data)


class OperationKind(StrEnum):
    """What a Segmint write did: apply plans, absorb fixes into earlier commits, split commits, undo."""

    APPLY = "apply"
    ABSORB = "absorb"
    SPLIT = "split"
    UNDO = "undo"


APPLY_OP, ABSORB_OP, SPLIT_OP, UNDO_OP = OperationKind


@dataclass
class Operation:
    """One Segmint write (an apply of one plan or of all, an undo), as `segmint undo --list` shows it:
    the branch it moved, HEAD and the index before and after. Undo takes back a whole one."""

    id: str  # op-N
    kind: OperationKind
    label: str  # what it did, for sentences: "commit-1, commit-2"
    actor: str
    time: str  # ISO 8601, UTC, when it began
    ref: str | None  # the branch HEAD named (refs/heads/main); None when detached
    head_before: str | None
    head_after: str | None
    index_before: str = ""  # file name of the copy of the index saved before (under .git/segmint/undo/)
    index_after: dict[str, str] = field(default_factory=dict)  # the entries it wrote, as it left them
    commits: list[str] = field(default_factory=list)  # the commits it made, oldest first
    undoes: list[str] = field(default_factory=list)  # undo: the operations it took back
    undone_by: str = ""  # the undo that took it back

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Operation":
        return from_wire(cls, data)


def id_number(ident: str) -> int:
    """The number ending an id (``commit-12`` -> 12; 0 if there is none)."""
    tail = ident.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0
