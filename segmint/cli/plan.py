"""``segmint plan``: the commits Segmint proposes, one per group, in order."""

from __future__ import annotations

import argparse
import sys

from segmint.cli.check import EXIT_FAILED, add_options, check, report_text
from segmint.cli.session_cli import open_session, plan_table
from segmint_core.cycles import cycles_left_uncollected
from segmint_core.jsonio import write_json
from segmint_core.session.models import APPLIED, Actor


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "plan",
        parents=[common],
        help="propose one commit per group, in dependency order",
        description="Show the planned commits, proposing them first if there are none "
        "(groups are made first if there are none).",
    )
    p.add_argument("--json", action="store_true", help='print {"commits": [...]} as JSON')
    p.add_argument(
        "--new",
        action="store_true",
        help="propose again (edited messages, and approvals of unchanged commits, are kept)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="then check each commit on its own, as `segmint check` does (exit status 1 if one fails)",
    )
    add_options(p)
    p.set_defaults(func=run)


@cycles_left_uncollected  # as `segmint group`: grouping and writing 10^5 objects' worth of plans make no cycles
def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    since = session.revision
    open_plans = [p for p in session.plans if p.status != APPLIED]
    # a plan whose lines are all gone (committed by hand, put back) can never be applied: plan afresh
    if args.new or not open_plans or all(not (p.hunk_ids or p.change_ids) for p in open_plans):
        session.propose_commits()
    merged = [
        a.text
        for a in session.state.activity
        if a.revision > since and a.actor == Actor.SEGMINT and a.action == "merged"
    ]  # groups titled alike, merged while proposing: said, or two groups would become one commit unexplained
    report = check(session, args, quiet=args.json) if args.check else None
    if args.json:
        write_json(
            {
                "commits": [p.to_dict() for p in session.plans],
                "revision": session.revision,
                "message_style": session.message_style().sentence(),
                "unplanned": [
                    {"group_id": u.group_id, "paths": u.paths, "nothing_to_commit": u.nothing, "reason": u.sentence}
                    for u in session.unplanned()
                ],
            }
        )
    else:
        style = f"Messages {session.message_style().sentence()}.\n\n" if session.plans else ""
        sys.stdout.write(style + plan_table(session.plans, session.unplanned()))
        sys.stdout.write("".join(f"\n{text[0].upper()}{text[1:]}.\n" for text in merged))
        if report is not None:
            sys.stdout.write("\n" + report_text(session, report))
    return EXIT_FAILED if report is not None and report.failed else 0
