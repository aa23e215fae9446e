"""``segmint plan``: the commits Segmint proposes, one per group, in order."""

from __future__ import annotations

import argparse
import sys

from segmint.cli.session_cli import open_session, plan_table
from segmint_core.jsonio import write_json
from segmint_core.session.models import APPLIED


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "plan", parents=[common], help="propose one commit per group, in dependency order",
        description="Show the planned commits, proposing them first if there are none "
                    "(groups are made first if there are none).",
    )
    p.add_argument("--json", action="store_true", help='print {"commits": [...]} as JSON')
    p.add_argument("--new", action="store_true", help="propose again (edited messages, and approvals of unchanged commits, are kept)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.new or not any(p.status != APPLIED for p in session.plans):
        session.propose_commits()
    if args.json:
        write_json({"commits": [p.to_dict() for p in session.plans], "revision": session.revision,
                    "message_style": session.message_style().sentence(),
                    "unplanned": [{"group_id": u.group_id, "paths": u.paths, "nothing_to_commit": u.nothing,
                                   "reason": u.sentence} for u in session.unplanned()]})
    else:
        style = f"Messages {session.message_style().sentence()}.\n\n" if session.plans else ""
        sys.stdout.write(style + plan_table(session.plans, session.unplanned()))
    return 0
