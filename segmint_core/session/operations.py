"""The operation log and undo, as session methods (``session.Session`` binds them).

Every Segmint write is one operation (``models.Operation``): an apply, an
``apply --all`` (all its commits), an undo. ``undo`` takes back the last whole
operation in one journaled move of HEAD (``apply.undo``), so a process killed
part-way leaves either all of it or none for the next command to finish;
``undo(op_id)`` takes back that operation and every one after it, when nothing
since (a commit made outside Segmint, a reset) stands in the way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from segmint_core.apply.commit import refuse_unfinished
from segmint_core.apply.journal import Unrecorded
from segmint_core.apply.undo import forget_saved_index, undo_commit
from segmint_core.errors import RefusedError, UnknownIdError
from segmint_core.session import events, ledger
from segmint_core.session.applying import operation_start
from segmint_core.session.core import SessionCore, short_head
from segmint_core.session.models import APPROVED, PERSON, UNDO_OP, AppliedCommit, Operation
from segmint_core.session.state import write_units
from segmint_core.wording import counted


@dataclass
class UndoOutcome:
    sha: str  # HEAD before the undo: the last commit taken back
    commit_id: str  # the plans undone, "commit-1, commit-2"
    head: str | None  # HEAD now
    operations: list[str] = field(default_factory=list)  # the operations taken back
    commits: list[str] = field(default_factory=list)  # the commits taken back, oldest first
    operation: str = ""  # the undo's own operation

    def to_dict(self) -> dict[str, Any]:
        return {
            "undone": self.sha,
            "commit_id": self.commit_id,
            "head": self.head,
            "operations": self.operations,
            "commits": self.commits,
            "operation": self.operation,
        }

    def sentence(self) -> str:
        ops = ", ".join(self.operations)
        made = counted(len(self.commits), "commit")
        return f"Undid {ops} ({self.commit_id}: {made}); HEAD is {short_head(self.head)} again."


def operations(session: SessionCore) -> list[Operation]:
    """The operation log, oldest first."""
    with session.lock:
        return list(session.state.operations)


def undo(session: SessionCore, op_id: str | None = None, *, actor: str = PERSON) -> UndoOutcome:
    """Take back the last operation not yet undone, or ``op_id`` and every operation after it."""
    with session.committing, session.lock:
        taking = _to_take_back(session, op_id)
        commits = [c for c in session.state.applied if c.op in {o.id for o in taking}]
        _refuse_unless_reachable(session, taking, commits)
        refuse_unfinished(session.git, "undo")
        first, head = commits[0], taking[-1].head_after
        label = ", ".join(c.plan_id for c in commits)
        start = operation_start(session, actor)

        def record() -> None:
            approved = [p["id"] for p in first.state_before["plans"] if p.get("status") == APPROVED]
            session.units = ledger.put_back(session.state, first, session.capture_changes(), commits)
            ledger.record_undo(session.state, taking, start, head, first.parent)
            again = f"; {', '.join(approved)} must be approved again" if approved else ""
            session.log(actor, "undid", f"{actor} undid {', '.join(o.id for o in taking)} ({label}){again}")
            try:
                write_units(session.folder, session.units, session.state)
                session.save()
            except OSError as exc:  # HEAD and the index are right; the journal stays for the next run
                raise Unrecorded(
                    f"{label} is undone: HEAD is back at {short_head(first.parent)} and the index as it was", exc
                ) from exc

        undo_commit(
            session.git,
            head or "",
            first.parent,
            saved_index=first.index_before,
            paths=_paths(commits),
            after=_index_after(commits),
            label=label,
            record=record,
            undoes=[o.id for o in taking],
        )
        for commit in commits:  # their commits are gone: nothing undoes them again
            forget_saved_index(session.git, commit.index_before)
        outcome = UndoOutcome(
            head or "", label, first.parent, [o.id for o in taking], [c.sha for c in commits], start.id
        )
    session.announce(events.CHANGES, actor, outcome.to_dict())
    session.announce(events.PLANS, actor, outcome.to_dict())
    return outcome


def _to_take_back(session: SessionCore, op_id: str | None) -> list[Operation]:
    state = session.state
    left = ledger.undoable(state)
    if op_id is None:
        if not left:
            raise RefusedError("Nothing to undo: Segmint has made no commit in this session")
        return left[-1:]
    named = ledger.find_operation(state, op_id)
    if named is None:
        raise UnknownIdError("operation", [op_id])
    if named.kind == UNDO_OP:
        raise RefusedError(f"{op_id} is an undo; undo takes back applies: see `segmint undo --list`")
    if named.undone_by:
        raise RefusedError(f"{op_id} is already undone (by {named.undone_by})")
    at = left.index(named)
    return left[at:]


def _refuse_unless_reachable(session: SessionCore, taking: list[Operation], commits: list[AppliedCommit]) -> None:
    """Undo moves HEAD from where the last operation left it to where the first began, in one step."""
    names = ", ".join(o.id for o in taking)
    made = [sha for o in taking for sha in o.commits]
    if [c.sha for c in commits] != made:
        raise RefusedError(
            f"Segmint no longer keeps what it needs to undo {names} (it keeps the last "
            "commits' saved index only); nothing was undone"
        )
    head = session.git.head()
    last = taking[-1]
    if head != last.head_after:
        if len(taking) == 1 and taking[0] is ledger.undoable(session.state)[-1]:
            raise RefusedError(
                f"HEAD is {short_head(head)}, not Segmint's last commit {short_head(last.head_after)}; "
                "nothing was undone"
            )
        raise RefusedError(
            f"HEAD is {short_head(head)}, not where {last.id} left it ({short_head(last.head_after)}): "
            f"something since stands in the way; nothing was undone"
        )


def _paths(commits: list[AppliedCommit]) -> list[str]:
    seen: dict[str, None] = {}
    for commit in commits:
        seen.update(dict.fromkeys(commit.paths))
    return list(seen)


def _index_after(commits: list[AppliedCommit]) -> dict[str, str]:
    after: dict[str, str] = {}
    for commit in commits:
        after.update(commit.index_after)
    return after
