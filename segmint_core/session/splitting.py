"""``split`` as session methods: committed work re-planned by intent in a scratch work tree, then the
branch moved to the new commits as one operation (``rewrite.split``)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from segmint_core.apply import journal
from segmint_core.apply.gitops import move_head
from segmint_core.changes.models import Hunk
from segmint_core.changes.parser import parse_diff
from segmint_core.git import Git
from segmint_core.rewrite import split, stack
from segmint_core.session import events, ledger
from segmint_core.session.applying import ApplyOutcome, ApplyStatus, FileCommitted, operation_start
from segmint_core.session.core import SessionCore
from segmint_core.errors import RefusedError
from segmint_core.session.models import AGENT, APPLIED, AWAITING_APPROVAL, PERSON, SPLIT_OP
from segmint_core.wording import counted

SPLIT_ID = "split"  # what an agent names the split under way by, where it names a commit plan


def split_session(session: SessionCore):
    """The session of the split under way, or None."""
    state = split.pending(session.git)
    if state is None:
        return None
    return type(session).open(str(split.scratch_tree(session.git)))


def start_split(
    session: SessionCore, spec: str, *, force: bool = False, follow_commits: bool = False, actor: str = PERSON
):
    """Lay the range's change out and plan it: the scratch tree's session, grouped and planned.
    ``follow_commits``: the range's commits are evidence (for a range of clean commits)."""
    with session.committing, session.lock:
        state = split.start(session.git, spec, force=force, follow_commits=follow_commits)
    with _busy(session, state, split.PLANNING):
        inner = split_session(session)
        inner.regroup(actor=actor)
        inner.propose_commits(actor=actor)
        _original_messages(inner, session.git, state)
    with session.lock:
        session.log(actor, "split", f"{actor} began splitting {spec}")
        session.save()
    session.announce(events.PLANS, actor, {"split": spec})
    return inner


def _original_messages(inner, git: Git, state: split.SplitState) -> None:
    """A planned commit making exactly the change one of the range's commits made keeps that commit's
    message: the author's words say it better than a title drafted from the diff. When every plan is
    one of them, they keep the range's order too. (A commit split alone keeps none: each part makes
    only some of its change.)"""
    if len(state.originals) < 2:
        return
    commits = stack.made(git, state.originals)
    by_change = {
        _changed_lines((f.new_path or f.old_path or "", f.hunks) for f in parse_diff(c.patch, strict=False)): c
        for c in commits.values()
    }
    kept: dict[str, str] = {}  # plan id -> the original commit it makes
    for plan in inner.plans:
        parts = inner.units.parts(plan.hunk_ids, plan.change_ids)
        original = by_change.get(_changed_lines((change.file_path, hunks) for change, hunks in parts))
        if original is not None:
            title, _, body = original.message.partition("\n")
            inner.update_commit(plan.id, title=title, description=body.strip(), actor="segmint")
            kept[plan.id] = original.sha
    if len(kept) == len(inner.plans) and len(set(kept.values())) == len(kept):
        _in_range_order(inner, [pid for pid, _ in sorted(kept.items(), key=lambda k: state.originals.index(k[1]))])


def _in_range_order(inner, plan_ids: list[str]) -> None:
    """Plans that are the range's commits given back whole, in the range's order and numbered so:
    that order applies cleanly, since the commits were made in it."""
    inner.reorder_commits(plan_ids, actor="segmint")
    with inner.lock:
        for number, plan in enumerate(inner.plans, start=1):
            plan.id = f"commit-{number}"
        inner.save()


def _changed_lines(files: Iterable[tuple[str, list[Hunk]]]) -> frozenset[tuple[tuple[str, str], int]]:
    """The changed lines of each file's hunks, counted per path and line: one change, however cut."""
    counted_lines = Counter(
        (path, line) for path, hunks in files for h in hunks for line in h.lines if line[:1] in ("+", "-")
    )
    return frozenset(counted_lines.items())


def abort_split(session: SessionCore, *, actor: str = PERSON) -> None:
    with session.lock:
        split.abort(session.git)
    session.announce(events.PLANS, actor, {"split": None})


def request_split(session: SessionCore, *, actor: str = PERSON) -> ApplyOutcome:
    """Apply the split under way, as an agent's commit is applied: with a person present who has not
    let the agent commit, it waits for their approval (``apply_split`` by them) instead."""
    state = _under_way(session)
    label = f"split of {state.label}"
    present = session.presence()
    if actor == AGENT and present.person_present and not present.agent_can_commit:
        with session.lock:
            split.mark_awaiting(session.git, state)
            session.record(actor, "requested", f"{actor} asked to apply the {label}: waiting for approval")
        session.announce(events.PLANS, actor, {"split": AWAITING_APPROVAL})
        return ApplyOutcome(
            SPLIT_ID, ApplyStatus.AWAITING_APPROVAL, message=f"The {label} is waiting for the person's approval"
        )
    made = apply_split(session, actor=actor)
    head = session.git.head()
    return ApplyOutcome(
        SPLIT_ID,
        ApplyStatus.APPLIED,
        sha=head,
        files=[f for outcome in made for f in outcome.files],
        message=f"The {label} made {counted(len(made), 'commit')}; the branch is at {(head or '')[:7]}",
    )


def apply_split(session: SessionCore, *, actor: str = PERSON) -> list[ApplyOutcome]:
    """Apply every plan of the split, then move the branch to the new commits (later ones replayed)."""
    state = _under_way(session)
    with _busy(session, state, split.APPLYING):
        return _apply_split(session, state, actor)


def _apply_split(session: SessionCore, state: split.SplitState, actor: str) -> list[ApplyOutcome]:
    inner = split_session(session)
    if not any(p.status != APPLIED for p in inner.plans) or any(not u.nothing for u in inner.unplanned()):
        inner.propose_commits(actor=actor)  # the scratch tree is all the split's: a split killed planning
    with _authored(state.author):
        # what committing the parts leaves (a blank line git places elsewhere, a plan left out of date)
        # apply_all plans again and commits too; nothing leaves the scratch tree before ``finish``
        made = inner.apply_all(actor=actor)
        moved = split.commit_submodules(session.git, state)
        if moved:
            sha = split.scratch_head(session.git)
            files = [FileCommitted(path=path, added=0, removed=0) for path in moved]
            made.append(
                ApplyOutcome("submodules", ApplyStatus.APPLIED, sha, files, f"Submodules committed as {sha[:7]}")
            )
    new_tip = split.finish(session.git, state)
    with session.committing, session.lock:
        op = operation_start(session, actor)
        op.kind = SPLIT_OP
        label = f"split of {state.label}"
        with journal.flight(session.git, journal.APPLY, label, state.head) as flight:
            flight.ready(
                target=session.git.run("rev-parse", f"{new_tip}^{{tree}}").text.strip(), tip=new_tip, operation=op.id
            )
            move_head(session.git, state.head, new_tip, "segmint: split")
            flight.moved = True
            ledger.record_rewrite(session.state, label, new_tip, state.head, op)
            session.log(actor, "split", f"{actor} split {counted(len(state.originals), 'commit')} into {len(made)}")
            session.save()
        split.abort(session.git)
    session.announce(events.PLANS, actor, {"split": new_tip})
    return made


def _under_way(session: SessionCore) -> split.SplitState:
    state = split.pending(session.git)
    if state is None:
        raise RefusedError("No split is under way: start one with `segmint split REV`")
    return state


@contextmanager
def _busy(session: SessionCore, state: split.SplitState, doing: str) -> Iterator[None]:
    """The marker names this process as ``doing`` the split while it does; a kill leaves the name
    for the next command to tell (``split.interrupted``). Finished or refused, the name goes."""
    with session.lock:
        split.mark_busy(session.git, state, doing)
    try:
        yield
    finally:
        with session.lock:
            if split.pending(session.git) is not None:  # applied: the marker is gone
                split.mark_busy(session.git, state, "")


@contextmanager
def _authored(author: dict[str, str]) -> Iterator[None]:
    """The original author and date on the new commits, when the split commits were one author's."""
    saved = {k: os.environ.get(k) for k in author}
    os.environ.update(author)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
