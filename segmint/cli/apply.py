"""``segmint apply``: commit a planned commit exactly, or all of them in order.

Exit status: 0 when every commit asked for was made; 3 when a batch
(``--all``) stopped part-way: the commits made are printed, then the reason
it stopped on stderr; 2 when nothing was committed (a refusal, or nothing
to commit), 1 for a full or failing disk before any commit.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from segmint.cli.session_cli import PLAN_AGAIN, open_session
from segmint_core.rewrite import split
from segmint_core.errors import OutOfDateError, SegmintError
from segmint_core.jsonio import write_json
from segmint_core.session.applying import ApplyOutcome, BatchStopped, stopped
from segmint_core.session.models import APPLIED
from segmint_core.session.session import Session
from segmint_core.wording import counted, shown

EXIT_PARTIAL = 3  # some commits were made, then the batch stopped


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "apply",
        parents=[common],
        help="commit a planned commit (or all of them) exactly",
        description="Commit exactly the hunks of a plan on top of HEAD. Work-tree files are never written; "
        "staged changes the plan does not cover stay staged. Exit status 3: --all stopped after "
        "committing some plans (they are listed, then why it stopped).",
    )
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("commit_id", nargs="?", metavar="COMMIT_ID", help="a plan id from `segmint plan`")
    target.add_argument("--all", action="store_true", help="apply every open plan, in order")
    p.add_argument("--dry-run", action="store_true", help="check and show what would be committed; change nothing")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument(
        "--require-check",
        action="store_true",
        help="check each commit on its own first (segmint check) and commit nothing if one fails",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args, warn=False)  # it refuses with the same words
    if args.all and split.pending(session.git) is not None:
        return _apply_split(session, args)
    with session.committing:  # what is left to apply is read once no other apply can change it
        session.catch_up()
        return _apply(session, args)


def _apply_split(session: Session, args: argparse.Namespace) -> int:
    """The split under way: its plans committed, later commits replayed, the branch moved."""
    before = session.git.head() or ""
    made = session.apply_split()
    show(made, args)
    if not args.json:
        print(
            f"Split done: the branch moved from {before[:7]} to {(session.git.head() or '')[:7]}, its final tree "
            "unchanged; `segmint undo` takes it back."
        )
    return 0


def _apply(session: Session, args: argparse.Namespace) -> int:
    if args.all and args.dry_run:
        raise SegmintError("--dry-run works on one commit at a time: give a COMMIT_ID")
    if not session.plans or args.all and not any(p.status != APPLIED for p in session.plans):
        raise SegmintError(nothing_to_apply(session))
    _mind_the_check(session, args)
    try:
        outcomes = session.apply_all() if args.all else [apply_one(session, args.commit_id, args.dry_run)]
    except OutOfDateError as exc:  # each says "propose commits again"; here that is a command
        raise OutOfDateError(f"{exc} with {PLAN_AGAIN}") from exc
    except BatchStopped as stop:
        show(stop.made, args, stopped=stop)
        print(
            f"segmint: stopped after {counted(len(stop.made), 'commit')}, at {stop.plan_id}: {stop.reason}",
            file=sys.stderr,
        )
        return EXIT_PARTIAL
    show(outcomes, args)
    if args.all and not args.json:
        for left in session.unplanned():
            print(f"Not committed: {left.sentence}.")
    return 0


def _mind_the_check(session: Session, args: argparse.Namespace) -> None:
    """With --require-check, check the open plans and refuse if one fails; else warn of a failed last check."""
    wanted = [p for p in session.plans if p.status != APPLIED and (args.all or p.id == args.commit_id)]
    if args.require_check:
        from segmint.cli.check import check

        report = check(session, args, quiet=True)
        failed = [r.commit_id for r in report.failed if any(p.id == r.commit_id for p in wanted)]
        if failed:
            raise SegmintError(
                f"{', '.join(failed)} fails its check on its own, so nothing was committed: "
                "`segmint check --fix` proposes a fix, or apply without --require-check"
            )
        return
    for plan in wanted:
        if plan.check and plan.check.get("status") == "failed":
            print(
                f"segmint: warning: {plan.id} fails its check on its own (segmint check); committing it anyway",
                file=sys.stderr,
            )


def apply_one(session: Session, commit_id: str, dry_run: bool) -> ApplyOutcome:
    try:
        return session.apply_commit(commit_id, dry_run=dry_run)
    except (SegmintError, OSError) as exc:
        stop = stopped(session, [], commit_id, exc)  # committed, then recording it failed (a full disk)
        if stop is None:
            raise
        raise stop from exc


def show(outcomes: list[ApplyOutcome], args: argparse.Namespace, *, stopped: BatchStopped | None = None) -> None:
    if args.json:
        data: dict[str, Any] = {"outcomes": [o.to_dict() for o in outcomes]}
        if stopped is not None:
            data["stopped"] = {"commit_id": stopped.plan_id, "reason": stopped.reason}
        write_json(data)
        return
    for outcome in outcomes:
        print(outcome.message)
        for f in outcome.files:
            print(f"  {shown(f['path'])} (+{f['added']} -{f['removed']})")


def nothing_to_apply(session: Session) -> str:
    """Why there is nothing to apply, and what to do about it."""
    if not session.changes:
        return "The working tree is clean: nothing to commit"
    if not session.plans and not session.groups:
        return "No commits are planned: run `segmint plan` first"
    left = session.unplanned()
    waiting = [u.sentence for u in left if not u.nothing]
    grouped = {c for g in session.groups for c in g.change_ids}
    loose = [shown(c.file_path) for c in session.changes if c.id not in grouped]
    if loose:
        waiting.append(
            f"{counted(len(loose), 'changed file')} in no group yet ({', '.join(loose[:3])}"
            f"{', …' if len(loose) > 3 else ''})"
        )
    if waiting:
        done = "Every planned commit is applied" if session.plans else "Nothing is planned"
        return (
            f"{done}, but there are changes no plan covers: {'; '.join(waiting)}. Run `segmint plan --new` to plan them"
        )
    if left:
        return "Nothing to commit: " + "; ".join(u.sentence for u in left)
    return "Nothing left to apply"
