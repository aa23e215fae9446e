"""``split`` as session methods: committed work re-planned by intent in a scratch work tree, then the
branch moved to the new commits as one operation (``rewrite.split``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from segmint_core.apply import journal
from segmint_core.apply.gitops import move_head
from segmint_core.rewrite import split
from segmint_core.session import events, ledger
from segmint_core.session.applying import ApplyOutcome, operation_start
from segmint_core.session.core import SessionCore
from segmint_core.session.models import PERSON, SPLIT_OP

LEFTOVER_ROUNDS = 2


def split_session(session: SessionCore):
    """The session of the split under way, or None."""
    state = split.pending(session.git)
    if state is None:
        return None
    return type(session).open(str(split.scratch_tree(session.git)))


def start_split(session: SessionCore, spec: str, *, force: bool = False, actor: str = PERSON):
    """Lay the range's change out and plan it: the scratch tree's session, grouped and planned."""
    with session.committing, session.lock:
        split.start(session.git, spec, force=force)
    inner = split_session(session)
    inner.regroup(actor=actor)
    inner.propose_commits(actor=actor)
    with session.lock:
        session.log(actor, "split", f"{actor} began splitting {spec}")
        session.save()
    return inner


def abort_split(session: SessionCore) -> None:
    with session.lock:
        split.abort(session.git)


def apply_split(session: SessionCore, *, actor: str = PERSON) -> list[ApplyOutcome]:
    """Apply every plan of the split, then move the branch to the new commits (later ones replayed)."""
    state = split.pending(session.git)
    inner = split_session(session)
    with _authored(state.author):
        made = inner.apply_all(actor=actor)
        for _ in range(LEFTOVER_ROUNDS):
            # Lines cut apart and committed part by part can leave a line git now places elsewhere
            # (a blank line moved): what is left is planned and committed too, as the planner sees it.
            if not split.leftover(session.git):
                break
            inner.propose_commits(actor=actor)
            made += inner.apply_all(actor=actor)
    new_tip = split.finish(session.git, state)
    with session.committing, session.lock:
        op = operation_start(session, actor)
        op.kind = SPLIT_OP
        label = f"split of {state.originals[0][:7]}..{state.tip[:7]}"
        with journal.flight(session.git, journal.APPLY, label, state.head) as flight:
            flight.ready(
                target=session.git.run("rev-parse", f"{new_tip}^{{tree}}").text.strip(), tip=new_tip, operation=op.id
            )
            move_head(session.git, state.head, new_tip, "segmint: split")
            flight.moved = True
            ledger.record_rewrite(session.state, label, new_tip, state.head, op)
            session.log(actor, "split", f"{actor} split {len(state.originals)} commits into {len(made)}")
            session.save()
        split.abort(session.git)
    session.announce(events.PLANS, actor, {"split": new_tip})
    return made


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
