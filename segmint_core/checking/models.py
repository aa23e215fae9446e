"""What a check says of each planned commit, as plain data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from segmint_core.apply.commit import Selection
    from segmint_core.changes import ChangeSet
    from segmint_core.changes.models import Change
    from segmint_core.git import Git


class CheckStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_CHECKED = "not_checked"


PASSED, FAILED, NOT_CHECKED = CheckStatus

ZERO_CONFIG = "zero-config"
OUTPUT_LINES = 40  # the tail of a failing command's output that is kept


@dataclass(frozen=True)
class PlanSpec:
    """A commit to check: its id and the lines it commits (a plan, or one a fix would make)."""

    id: str
    hunk_ids: tuple[str, ...]
    change_ids: tuple[str, ...] = ()
    group_ids: tuple[str, ...] = ()

    @classmethod
    def of(cls, plan: Any) -> "PlanSpec":
        return cls(plan.id, tuple(plan.hunk_ids), tuple(plan.change_ids), tuple(plan.change_group_ids))


@dataclass
class CheckResult:
    """One commit's check: passed, failed (with the tail of the output), or not checked (why)."""

    commit_id: str
    status: CheckStatus
    check: str  # "zero-config" or the command run
    tree: str | None = None  # the commit's tree (None: it could not be built)
    output: str = ""  # the failure's output, or why it was not checked
    needs: list[str] = field(default_factory=list)  # later commits it needs (names they define)
    seconds: float = 0.0
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "commit_id": self.commit_id,
            "status": self.status,
            "check": self.check,
            "tree": self.tree,
            "output": self.output,
            "needs": list(self.needs),
            "seconds": round(self.seconds, 3),
            "cached": self.cached,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CheckResult":
        return cls(**{**data, "status": CheckStatus(data["status"])})

    @property
    def mark(self) -> str:
        return {PASSED: "✓", FAILED: "✗"}.get(self.status, "–")


@dataclass
class CheckReport:
    check: str
    results: list[CheckResult]
    seconds: float = 0.0

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if r.status == FAILED]

    @property
    def ok(self) -> bool:
        return not self.failed

    def result(self, commit_id: str) -> CheckResult | None:
        return next((r for r in self.results if r.commit_id == commit_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "commits": [r.to_dict() for r in self.results],
        }


@dataclass(frozen=True)
class SessionView:
    """What a check reads of the session, taken at once (``session.checks`` makes it): the repository,
    the changes as read, those changes with each split hunk in its parts (``effective``), and the
    lines a commit takes (``select``)."""

    git: Git
    changes: ChangeSet
    effective: list[Change]
    select: Callable[[PlanSpec], Selection]
