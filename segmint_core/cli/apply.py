"""``segmint apply``: commit a planned commit exactly, or all of them in order."""

from __future__ import annotations

import argparse

from segmint_core.cli.session_cli import open_session
from segmint_core.errors import SegmintError
from segmint_core.jsonio import write_json


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "apply", parents=[common], help="commit a planned commit (or all of them) exactly",
        description="Commit exactly the hunks of a plan on top of HEAD. Work-tree files are never written; "
                    "staged changes the plan does not cover stay staged.",
    )
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("commit_id", nargs="?", metavar="COMMIT_ID", help="a plan id from `segmint plan`")
    target.add_argument("--all", action="store_true", help="apply every open plan, in order")
    p.add_argument("--dry-run", action="store_true", help="check and show what would be committed; change nothing")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.all and args.dry_run:
        raise SegmintError("--dry-run works on one commit at a time: give a COMMIT_ID")
    if not session.plans:
        if not session.changes:
            raise SegmintError("The working tree is clean: nothing to commit")
        raise SegmintError("No commits are planned: run `segmint plan` first")
    outcomes = session.apply_all() if args.all else [session.apply_commit(args.commit_id, dry_run=args.dry_run)]
    if args.json:
        write_json({"outcomes": [o.to_dict() for o in outcomes]})
        return 0
    for outcome in outcomes:
        print(outcome.message)
        for f in outcome.files:
            print(f"  {f['path']} (+{f['added']} -{f['removed']})")
    if not outcomes:
        print("Nothing left to apply.")
    return 0
