"""Shared bits of the commands that work on the persisted session."""

from __future__ import annotations

from collections.abc import Sequence

import argparse
import sys

from segmint_core.session.models import CommitPlan
from segmint_core.session.plans import Unplanned
from segmint_core.session.session import Session
from segmint_core.unfinished import conflict_warning
from segmint_core.wording import shown


PLAN_AGAIN = "`segmint plan --new`"


def open_session(args: argparse.Namespace, *, warn: bool = True) -> Session:
    """The repository's session; an interrupted commit or undo it finished is told on stderr, and
    (``warn``) conflicted files a merge or rebase left, which no commit can be made with."""
    session = Session.open(args.repo)
    for sentence in session.recovered:
        print(f"segmint: {sentence}", file=sys.stderr)
    warning = conflict_warning(session.git, session.changes) if warn else None
    if warning is not None:
        print(f"segmint: warning: {warning}.", file=sys.stderr)
    return session


def plan_table(plans: list[CommitPlan], unplanned: Sequence[Unplanned] = ()) -> str:
    """The plans as a table, then their notes, and a line for each group no plan covers."""
    if not plans:
        return "No commits planned.\n" + "".join(f"{u.sentence}.\n" for u in unplanned)
    rows = [("ID", "STATUS", "HUNKS", "TITLE")]
    for plan in plans:
        status = f"applied {plan.sha[:7]}" if plan.status == "applied" and plan.sha else plan.status
        status = "out of date" if plan.out_of_date else status
        rows.append((plan.id, status, str(len(plan.hunk_ids) + len(plan.change_ids)), shown(plan.title)))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join([r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].rjust(widths[2]), r[3]]) for r in rows]
    notes = (
        [f"{p.id}: {shown(p.note)}" for p in plans if p.note]
        + [p.out_of_date for p in plans if p.out_of_date]
        + [f"{u.sentence}." for u in unplanned]
    )
    if notes:
        lines += ["", *notes]
    if any(p.out_of_date for p in plans) or any(not u.nothing for u in unplanned):  # proposing again plans those
        lines.append(f"Propose commits again with {PLAN_AGAIN}.")
    return "\n".join(lines) + "\n"
